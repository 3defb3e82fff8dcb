package bufq.dump.proto;

import bufq.testing.ProtoFile;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link FieldNumbers} holds the numbers of {@code bufq_xla_subset.proto}, every one and no other. */
class FieldNumbersTest {
    @Test
    void everyConstantIsTheNumberInTheProtoFile() throws Exception {
        ProtoFile proto = ProtoFile.read("query-engine/src/main/proto/bufq_xla_subset.proto");
        Map<String, Map<String, Integer>> documented = new HashMap<>();
        proto.messages().forEach((message, fields) -> documented.put(message.replace('.', '_'), fields));
        // protobuf writes a map<K, V> field as entries whose key is field 1 and value field 2
        if (proto.hasMapField()) documented.put("MapEntry", Map.of("key", 1, "value", 2));

        Set<String> seen = new HashSet<>();
        for (Class<?> message : FieldNumbers.class.getDeclaredClasses()) {
            Map<String, Integer> fields = documented.get(message.getSimpleName());
            assertNotNull(fields, message.getSimpleName() + " is not a message of bufq_xla_subset.proto");
            int constants = 0;
            for (var constant : message.getDeclaredFields()) {
                if (!Modifier.isStatic(constant.getModifiers())) continue;
                constant.setAccessible(true);
                String name = constant.getName().toLowerCase();
                String where = message.getSimpleName() + "." + constant.getName();
                assertNotNull(fields.get(name), where + " is not a field of bufq_xla_subset.proto");
                assertEquals(fields.get(name), constant.getInt(null), where);
                constants++;
            }
            assertEquals(fields.size(), constants, message.getSimpleName() + " has a constant for each of " + fields.keySet());
            seen.add(message.getSimpleName());
        }
        assertEquals(documented.keySet(), seen, "every message of the .proto file has its class in FieldNumbers");
        assertTrue(seen.size() > 20, "the .proto file was read: " + seen);
    }
}

package bufq.analysis.sharding;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.testing.Corpus;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The entry parameters' OpSharding of an xla.HloProto, printed as the HLO text prints it. */
class HloProtoShardingsTest {
    private interface Body { void write(CodedOutputStream o) throws IOException; }

    private static ByteString message(Body b) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream o = CodedOutputStream.newInstance(bytes);
        b.write(o);
        o.flush();
        return ByteString.copyFrom(bytes.toByteArray());
    }

    /** An OpSharding of type OTHER with {@code dims}, iota devices, maybe replicated on the last tile dimension. */
    private static ByteString tiled(long[] dims, boolean replicateLast) throws IOException {
        return message(o -> {
            o.writeEnum(1, 3);
            for (long d : dims) o.writeInt64(3, d);   // unpacked, as some writers do
            long n = 1;
            for (long d : dims) n *= d;
            o.writeInt64(9, n);
            if (replicateLast) o.writeBool(6, true);
        });
    }

    private static ByteString parameter(String name, int number, String opName, ByteString sharding) throws IOException {
        return message(o -> {
            o.writeString(1, name);
            o.writeString(2, "parameter");
            o.writeBytes(7, message(m -> m.writeString(2, opName)));
            o.writeInt64(9, number);
            if (sharding != null) o.writeBytes(40, sharding);
        });
    }

    @Test
    void theEntrysParametersGiveTheirShardingsInXlasText() throws IOException {
        ByteString replicated = message(o -> o.writeEnum(1, 0));
        ByteString tuple = message(o -> {
            o.writeEnum(1, 2);
            o.writeBytes(5, tiled(new long[] {8, 1}, false));
            o.writeBytes(5, message(t -> t.writeEnum(1, 0)));
        });
        ByteString entry = message(c -> {
            c.writeString(1, "main.5_spmd");
            c.writeBytes(2, parameter("param", 0, "params['w']", tiled(new long[] {4, 1, 2}, true)));
            c.writeBytes(2, parameter("param.1", 1, "params['b']", replicated));
            c.writeBytes(2, parameter("param.2", 2, "state", tuple));
            c.writeBytes(2, message(i -> { i.writeString(1, "add.3"); i.writeString(2, "add"); }));
            c.writeInt64(5, 7);
        });
        ByteString fused = message(c -> {
            c.writeBytes(2, parameter("p.0", 0, "inside", null));
            c.writeInt64(5, 3);
        });
        ByteString module = message(m -> {
            m.writeString(1, "jit_step");
            m.writeBytes(3, fused);
            m.writeBytes(3, entry);
            m.writeInt64(6, 7);
        });
        byte[] proto = message(p -> p.writeBytes(1, module)).toByteArray();
        HloTextShardings.Read r = HloProtoShardings.read(proto);
        assertEquals(8, r.partitions(), "the most devices a parameter's sharding spans");
        assertEquals(List.of("param", "param.1", "param.2"), List.copyOf(r.parameters().keySet()), "the entry's, not the fusion's");
        assertEquals("{devices=[4,1,2]<=[8] last_tile_dim_replicate}", r.parameters().get("param").sharding().text());
        assertEquals(4, r.parameters().get("param").sharding().shards());
        assertEquals("params['w']", r.parameters().get("param").opName());
        assertTrue(r.parameters().get("param.1").sharding().replicated());
        assertEquals("{{devices=[8,1]<=[8]}, {replicated}}", r.parameters().get("param.2").sharding().text());
    }

    @Test
    void aCpuModulesProtoHasItsParametersAndNoSharding() throws Exception {
        Path pb = Corpus.requireFile("jax-0.10.2-proto/bf16-mlp", ".hlo.pb");
        HloModule m = DumpLoader.load(List.of(pb)).get(0);
        Shardings s = Shardings.of(m);
        assertTrue(s.known(), "read from " + pb);
        assertEquals(1, s.partitions());
        assertTrue(!s.parameters().isEmpty());
        for (ShardedParameter p : s.parameters().values()) assertNull(p.sharding(), p.name());
    }
}

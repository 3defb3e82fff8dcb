package bufq.dump.text;



import bufq.model.HloInstruction;
import bufq.util.IdTable;
import bufq.model.LoadWarning;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The text reader's own tables (interner, name and id tables), checked against the JDK's. */
class TextTablesTest {

    @Test
    void internerGivesOneInstancePerTextAcrossThreadsAndGrowth() throws Exception {
        Interner root = new Interner(16);   // tiny: every stripe grows many times
        int threads = 4, names = 20_000;
        // Each thread reads the names out of a text of its own, in its own order.
        List<String> texts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < names; i++) order.add(i);
            java.util.Collections.shuffle(order, new Random(t));
            StringBuilder b = new StringBuilder();
            // Names of every length around the 8-byte words the byte path hashes.
            for (int i : order) b.append("fusion.".substring(0, i % 8)).append(i).append('\n');
            texts.add(b.toString());
        }
        Map<String, String> seen = new ConcurrentHashMap<>();
        List<String> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String text = texts.get(t);
            boolean bytes = t % 2 == 1;   // half the threads read the names through the text's bytes
            Thread th = new Thread(() -> {
                Interner in = root.local(1 << 10);   // a small cache: most names go to the shared table
                if (bytes) {
                    byte[] b = ("pad" + text).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                    in.asciiRegion(text, b, 3);
                }
                try { start.await(); } catch (InterruptedException e) { return; }
                for (int from = 0; from < text.length(); ) {
                    int nl = text.indexOf('\n', from);
                    String s = in.name(text, from, nl);
                    if (!text.regionMatches(from, s, 0, nl - from) || s.length() != nl - from) errors.add("wrong text " + s);
                    String prev = seen.putIfAbsent(s, s);
                    if (prev != null && prev != s) errors.add("two instances of " + s);
                    from = nl + 1;
                }
            });
            ts.add(th);
            th.start();
        }
        start.countDown();
        for (Thread th : ts) th.join();
        assertEquals(List.of(), errors);
        assertEquals(names, seen.size());
        assertSame(seen.get("fusion.7"), root.name("xx fusion.7 yy", 3, 11));
    }

    @Test
    void internerReadsAsciiBytesAndTextAlike() {
        for (int n = 0; n <= 40; n++) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < n; i++) b.append((char) ('a' + (i * 7) % 26));
            String s = b.toString();
            byte[] bytes = ("__" + s).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            assertEquals(Interner.hash(s, 0, n), Interner.hash(bytes, 2, n), "length " + n);
        }
        Interner root = new Interner(16);
        Interner text = root.local(100), raw = root.local(100);
        String region = "a.1 caf\u00e9 cafe b.2";
        byte[] utf8 = region.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertFalse(WordScan.ascii(utf8, 0, utf8.length));
        // A byte past 0x7F is found at every position and alignment, in the eight-byte words and the tail.
        for (int len = 1; len <= 24; len++) {
            for (int at = 0; at < len; at++) {
                byte[] b = new byte[len + 3];
                java.util.Arrays.fill(b, (byte) 'x');
                b[1 + at] = (byte) 0x80;
                assertFalse(WordScan.ascii(b, 1, len), len + " bytes, high at " + at);
                b[1 + at] = 'y';
                b[0] = b[len + 1] = (byte) 0xC3;   // outside the range: not looked at
                assertTrue(WordScan.ascii(b, 1, len), len + " bytes");
            }
        }
        String ascii = "b.2 cafe a.1";
        raw.asciiRegion(ascii, ascii.getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0);
        String a1 = text.name(region, 0, 3), cafeAccent = text.name(region, 4, 8), cafe = text.name(region, 9, 13);
        assertEquals("caf\u00e9", cafeAccent);
        assertNotSame(cafeAccent, cafe);
        assertSame(a1, raw.name(ascii, 9, 12));
        assertSame(cafe, raw.name(ascii, 4, 8));
        String b2 = raw.name(ascii, 0, 3);
        assertSame(b2, text.name(region, 14, 17));
        assertSame(b2, raw.name(ascii, 0, 3));   // from the view's cache of recent names
    }

    @Test
    void nameTableAndIdTableAgreeWithHashMaps() {
        Random r = new Random(8);
        NameTable names = new NameTable(4);
        IdTable ids = new IdTable(4);
        Map<String, Integer> namesRef = new HashMap<>();
        Map<Long, Integer> idsRef = new HashMap<>();
        for (int i = 0; i < 50_000; i++) {
            String k = "add." + r.nextInt(20_000);
            int v = r.nextInt();
            assertEquals(!namesRef.containsKey(k), names.put(new String(k), v));   // equal, not identical keys
            namesRef.put(k, v);
            long id = r.nextInt(1 << 20) * 7919L;
            ids.put(id, i);
            idsRef.put(id, i);
        }
        assertEquals(namesRef.size(), names.size());
        namesRef.forEach((k, v) -> assertEquals(v, names.get(k, -1)));
        assertEquals(-1, names.get("absent", -1));
        idsRef.forEach((k, v) -> assertEquals(v, ids.get(k)));
        assertEquals(-1, ids.get(3));
        long some = idsRef.keySet().iterator().next();
        assertEquals(idsRef.get(some), ids.take(some));
        assertEquals(-1, ids.take(some));   // a block joins one value only
    }

    @Test
    void idTableKeepsProtoIdsAndEveryLong() {
        // XLA's instruction ids: the computation in the upper 32 bits, a small number in the lower.
        IdTable ids = new IdTable(4);
        Map<Long, Integer> ref = new HashMap<>();
        for (int c = 0; c < 300; c++) {
            for (int n = 0; n < 40; n++) {
                long id = (long) c << 32 | n;
                ids.put(id, ref.size());
                ref.put(id, ref.size());
            }
        }
        ids.put(Long.MIN_VALUE, 7);        // a proto may hold any int64 (the table once kept this one aside)
        ids.put(-1L, 8);
        ref.forEach((k, v) -> assertEquals(v, ids.get(k)));
        assertEquals(7, ids.get(Long.MIN_VALUE));
        assertEquals(8, ids.get(-1L));
        assertEquals(-1, ids.get(300L << 32));
        assertEquals(7, ids.take(Long.MIN_VALUE));
        assertEquals(-1, ids.get(Long.MIN_VALUE));
    }
}

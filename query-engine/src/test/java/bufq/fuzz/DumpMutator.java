package bufq.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Damages dump files the ways real ones get damaged or forged. Works on bytes (through ISO-8859-1,
 * which maps bytes to chars one to one) so flipped bits and cut UTF-8 sequences survive.
 */
final class DumpMutator {
    private DumpMutator() {}

    enum Kind {
        TRUNCATE, DELETE_LINES, DUPLICATE_LINES, SWAP_LINES, FLIP_BYTES, EXTREME_NUMBERS, COLLIDING_IDS,
        RANGES_PAST_SEQUENCE, INVALID_UTF8, CRLF
    }

    static final String[] EXTREMES = {
        "9223372036854775807", "9223372036854775808", "99999999999999999999999", "-1", "-9223372036854775808",
        "4611686018427387904", "2147483647", "2147483648", "4294967296", "0", "-0",
    };

    private static final Pattern NUMBER = Pattern.compile("\\d+");
    private static final Pattern VALUE_ID = Pattern.compile("<(\\d+) ");
    private static final Pattern ALLOCATION_INDEX = Pattern.compile("(?m)^allocation (\\d+):");
    private static final Pattern RANGE = Pattern.compile("(?m)^(\\s+\\S+):(\\d+)-(\\d+)$");
    private static final Pattern MAX = Pattern.compile("HloLiveRange \\(max (\\d+)\\)");
    private static final Pattern PEAK_AT = Pattern.compile("Live ranges at (\\d+)");

    static byte[] mutate(Kind kind, byte[] input, Random r) {
        String s = new String(input, StandardCharsets.ISO_8859_1);
        String out = switch (kind) {
            case TRUNCATE -> s.isEmpty() ? s : s.substring(0, r.nextInt(s.length()));
            case DELETE_LINES -> lines(s, r, (ls, i) -> ls.remove(i));
            case DUPLICATE_LINES -> lines(s, r, (ls, i) -> ls.add(i, ls.get(i)));
            case SWAP_LINES -> lines(s, r, (ls, i) -> {
                int j = r.nextInt(ls.size());
                String t = ls.get(i);
                ls.set(i, ls.get(j));
                ls.set(j, t);
            });
            case FLIP_BYTES -> flip(s, r);
            case EXTREME_NUMBERS -> extremes(s, r);
            case COLLIDING_IDS -> collide(s, r);
            case RANGES_PAST_SEQUENCE -> pastSequence(s, r);
            case INVALID_UTF8 -> invalidUtf8(s, r);
            case CRLF -> r.nextBoolean() ? s.replace("\n", "\r\n") : someCrlf(s, r);
        };
        return out.getBytes(StandardCharsets.ISO_8859_1);
    }

    private interface LineEdit { void apply(List<String> lines, int i); }

    private static String lines(String s, Random r, LineEdit edit) {
        List<String> ls = new ArrayList<>(Arrays.asList(s.split("\n", -1)));
        for (int k = 1 + r.nextInt(5); k > 0 && !ls.isEmpty(); k--) edit.apply(ls, r.nextInt(ls.size()));
        return String.join("\n", ls);
    }

    private static String flip(String s, Random r) {
        if (s.isEmpty()) return s;
        char[] c = s.toCharArray();
        for (int k = 1 + r.nextInt(8); k > 0; k--) {
            int i = r.nextInt(c.length);
            c[i] = (char) ((c[i] ^ (1 + r.nextInt(255))) & 0xff);
        }
        return new String(c);
    }

    private static String extremes(String s, Random r) {
        List<int[]> spans = spans(NUMBER.matcher(s), 0);
        if (spans.isEmpty()) return s;
        StringBuilder b = new StringBuilder(s);
        // Replace from the end so earlier spans keep their offsets.
        List<int[]> picked = new ArrayList<>();
        for (int k = 1 + r.nextInt(3); k > 0; k--) picked.add(spans.get(r.nextInt(spans.size())));
        picked.sort((x, y) -> Integer.compare(y[0], x[0]));
        int last = Integer.MAX_VALUE;
        for (int[] sp : picked) {
            if (sp[1] > last) continue;
            b.replace(sp[0], sp[1], EXTREMES[r.nextInt(EXTREMES.length)]);
            last = sp[0];
        }
        return b.toString();
    }

    private static String collide(String s, Random r) {
        Pattern p = r.nextBoolean() ? VALUE_ID : ALLOCATION_INDEX;
        List<int[]> spans = spans(p.matcher(s), 1);
        if (spans.size() < 2) return extremes(s, r);
        int[] from = spans.get(r.nextInt(spans.size()));
        int[] to = spans.get(r.nextInt(spans.size()));
        String id = s.substring(from[0], from[1]);
        return s.substring(0, to[0]) + id + s.substring(to[1]);
    }

    private static String pastSequence(String s, Random r) {
        Matcher max = MAX.matcher(s);
        long t = max.find() ? Long.parseLong(max.group(1)) : 10;
        switch (r.nextInt(4)) {
            case 0 -> {   // the schedule claims fewer steps than the ranges use
                if (max.find(0)) return s.substring(0, max.start(1)) + r.nextInt((int) Math.min(t + 1, 3)) + s.substring(max.end(1));
            }
            case 1 -> {   // the peak lies past the end
                Matcher m = PEAK_AT.matcher(s);
                if (m.find()) return s.substring(0, m.start(1)) + (t + 1 + r.nextInt(1000)) + s.substring(m.end(1));
            }
            default -> { }
        }
        List<int[]> ends = spans(RANGE.matcher(s), 3);
        List<int[]> starts = spans(RANGE.matcher(s), 2);
        if (ends.isEmpty()) return extremes(s, r);
        StringBuilder b = new StringBuilder(s);
        int i = r.nextInt(ends.size());
        String[] choices = {String.valueOf(t + 1), String.valueOf(t + 1_000_000), "2147483648", "9223372036854775807"};
        b.replace(ends.get(i)[0], ends.get(i)[1], choices[r.nextInt(choices.length)]);
        if (r.nextInt(3) == 0) b.replace(starts.get(i)[0], starts.get(i)[1], String.valueOf(t + 5));   // start > end
        return b.toString();
    }

    private static final String[] BAD_UTF8 = {
        "\u00c3\u0028", "\u00ff", "\u0080", "\u00c0\u00af", "\u00ed\u00a0\u0080", "\u00f0\u0090\u0080", "\u00fe\u00fe\u00ff\u00ff", "\u00e2\u0094",
    };

    private static String invalidUtf8(String s, Random r) {
        StringBuilder b = new StringBuilder(s);
        for (int k = 1 + r.nextInt(3); k > 0; k--) b.insert(r.nextInt(b.length() + 1), BAD_UTF8[r.nextInt(BAD_UTF8.length)]);
        return b.toString();
    }

    private static String someCrlf(String s, Random r) {
        StringBuilder b = new StringBuilder(s.length() + 64);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n' && r.nextInt(4) == 0) b.append(r.nextBoolean() ? "\r\n" : "\r");
            else b.append(c);
        }
        return b.toString();
    }

    private static List<int[]> spans(Matcher m, int group) {
        List<int[]> out = new ArrayList<>();
        while (m.find()) out.add(new int[] {m.start(group), m.end(group)});
        return out;
    }
}

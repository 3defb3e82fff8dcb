package bufq.analysis.sharding;

import java.util.ArrayList;
import java.util.List;

/**
 * One of XLA's shardings as its HLO text prints it ({@code HloSharding::ToString}): how an array of
 * an SPMD module is laid over the devices. Immutable.
 *
 * <pre>
 *   sharding  := '{' ( 'replicated' | 'manual' | 'unknown' | 'maximal device=' N
 *                    | 'devices=[' dims ']' assignment [ 'last_tile_dim_replicate' | 'last_tile_dims={' kinds '}' ]
 *                    | sharding (',' sharding)* ) '}'
 *   assignment := '<=[' dims ']' [ 'T(' perm ')' ] | N (',' N)*
 * </pre>
 *
 * @param text     XLA's text, as the HLO printed it
 * @param kind     what it is
 * @param tile     the tile assignment's dimensions ({@code devices=[4,1,2]}), the array's own first,
 *                 then {@code subgroups} more; empty unless {@code kind} is {@link Kind#TILED}
 * @param subgroups trailing tile dimensions that are not the array's ({@code last_tile_dim_replicate}
 *                 is one: copies of each tile)
 * @param elements a tuple's shardings, one per leaf in order; empty otherwise
 */
public record HloSharding(String text, Kind kind, List<Long> tile, int subgroups, List<HloSharding> elements) {
    public enum Kind { REPLICATED, MAXIMAL, MANUAL, UNKNOWN, TILED, TUPLE }

    public HloSharding {
        tile = List.copyOf(tile);
        elements = List.copyOf(elements);
    }

    /** The sharding XLA printed as {@code text} ({@code {devices=[4,1]<=[4]}}). */
    public static HloSharding parse(String text) {
        String t = text.strip();
        if (!t.startsWith("{") || !t.endsWith("}")) throw new IllegalArgumentException("a sharding is in braces, not '" + text + "'");
        String in = t.substring(1, t.length() - 1).strip();
        if (in.startsWith("{")) {
            List<HloSharding> parts = new ArrayList<>();
            for (String p : topLevel(in)) parts.add(parse(p));
            return new HloSharding(t, Kind.TUPLE, List.of(), 0, parts);
        }
        if (in.isEmpty()) return new HloSharding(t, Kind.TUPLE, List.of(), 0, List.of());
        if (in.startsWith("replicated")) return new HloSharding(t, Kind.REPLICATED, List.of(), 0, List.of());
        if (in.startsWith("maximal")) return new HloSharding(t, Kind.MAXIMAL, List.of(), 0, List.of());
        if (in.startsWith("manual")) return new HloSharding(t, Kind.MANUAL, List.of(), 0, List.of());
        if (in.startsWith("devices=[")) {
            int close = in.indexOf(']');
            List<Long> dims = new ArrayList<>();
            for (String d : in.substring("devices=[".length(), close).split(",")) dims.add(Long.parseLong(d.strip()));
            int subgroups = 0;
            if (in.contains("last_tile_dim_replicate")) subgroups = 1;
            int k = in.indexOf("last_tile_dims={");
            if (k >= 0) {
                int end = in.indexOf('}', k);
                subgroups = in.substring(k + "last_tile_dims={".length(), end).split(",").length;
            }
            return new HloSharding(t, Kind.TILED, dims, Math.min(subgroups, dims.size()), List.of());
        }
        return new HloSharding(t, Kind.UNKNOWN, List.of(), 0, List.of());
    }

    /** The comma-separated brace groups of a tuple's inside. */
    private static List<String> topLevel(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0, start = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '{') {
                if (depth++ == 0) start = i;
            } else if (c == '}' && --depth == 0) {
                out.add(s.substring(start, i + 1));
            }
        }
        return out;
    }

    /**
     * Into how many distinct pieces the array is cut: the product of the tile dimensions that are
     * the array's own; 1 when it is whole on a device (replicated, maximal, manual).
     */
    public long shards() {
        if (kind != Kind.TILED) return 1;
        long n = 1;
        for (int i = 0; i < tile.size() - subgroups; i++) n *= tile.get(i);
        return n;
    }

    /** Every element is on every device: replicated, or tiled into one piece (all copies). */
    public boolean replicated() {
        return kind == Kind.REPLICATED || (kind == Kind.TILED && shards() == 1);
    }

    /**
     * The global dimensions of an array whose per-device dimensions are {@code perDevice}: each
     * times its tile count. XLA pads an uneven split, so this is the padded global shape (at most
     * one tile count more than the array's own along each split dimension).
     */
    public long[] globalDims(long[] perDevice) {
        long[] out = perDevice.clone();
        if (kind != Kind.TILED) return out;
        for (int i = 0; i < out.length && i < tile.size() - subgroups; i++) out[i] *= tile.get(i);
        return out;
    }

    /**
     * The sharding of the leaf at {@code index} ({@code {2}}) of a tuple, this one of an array
     * ({@code {}} or null); null when the tuple has no such leaf.
     */
    public HloSharding at(String index) {
        if (kind != Kind.TUPLE) return this;
        if (index == null || index.equals("{}")) return null;
        String in = index.replaceAll("[{} ]", "");
        try {
            int k = Integer.parseInt(in.split(",")[0]);
            return k >= 0 && k < elements.size() ? elements.get(k) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** In words: {@code 1/4 per device}, {@code 1/2 per device, 2 copies}, {@code replicated}. */
    public String perDevice() {
        return switch (kind) {
            case REPLICATED -> "replicated";
            case MAXIMAL -> "on one device";
            case MANUAL -> "manual";
            case UNKNOWN -> "unknown";
            case TUPLE -> "tuple";
            case TILED -> shards() == 1 ? "replicated" : "1/" + shards() + " per device" + (copies() > 1 ? ", " + copies() + " copies" : "");
        };
    }

    /** How many devices hold each piece (the replicated subgroup's size; 1 when every piece is on one device). */
    public long copies() {
        if (kind != Kind.TILED) return 1;
        long n = 1;
        for (int i = tile.size() - subgroups; i < tile.size(); i++) n *= tile.get(i);
        return n;
    }
}

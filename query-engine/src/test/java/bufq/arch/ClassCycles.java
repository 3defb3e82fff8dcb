package bufq.arch;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Class cycles as {@link ArchitectureTest.ClassCycleTest} and the shell's own check count them: the strongly
 * connected components of the "uses" graph of top-level classes, a nested or anonymous class
 * counting as its top-level class. Public so both modules' tests hold their code to one algorithm.
 */
public final class ClassCycles {
    private ClassCycles() {}

    /** The strongly connected components of more than one top-level class under {@code prefix}, sorted. */
    public static List<Set<String>> cycles(JavaClasses classes, String prefix) {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (JavaClass c : classes) {
            String from = top(c);
            if (!from.startsWith(prefix + ".")) continue;
            Set<String> to = uses.computeIfAbsent(from, k -> new TreeSet<>());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String target = top(d.getTargetClass());
                if (target.startsWith(prefix + ".") && !target.equals(from)) to.add(target);
            }
        }
        return new Tarjan(uses).components();
    }

    private static String top(JavaClass c) {
        String name = c.getName();
        int dollar = name.indexOf('$');
        return dollar < 0 ? name : name.substring(0, dollar);
    }

    /** Tarjan's strongly connected components over a small graph (recursion depth: the class count). */
    private static final class Tarjan {
        private final Map<String, Set<String>> edges;
        private final Map<String, Integer> index = new HashMap<>(), low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new TreeSet<>();
        private final List<Set<String>> out = new ArrayList<>();

        Tarjan(Map<String, Set<String>> edges) { this.edges = edges; }

        List<Set<String>> components() {
            for (String v : edges.keySet()) if (!index.containsKey(v)) visit(v);
            out.sort((a, b) -> a.iterator().next().compareTo(b.iterator().next()));
            return out;
        }

        private void visit(String v) {
            index.put(v, index.size());
            low.put(v, index.get(v));
            stack.push(v);
            onStack.add(v);
            for (String w : edges.getOrDefault(v, Set.of())) {
                if (!index.containsKey(w)) {
                    visit(w);
                    low.put(v, Math.min(low.get(v), low.get(w)));
                } else if (onStack.contains(w)) {
                    low.put(v, Math.min(low.get(v), index.get(w)));
                }
            }
            if (low.get(v).equals(index.get(v))) {
                Set<String> component = new TreeSet<>();
                String w;
                do {
                    w = stack.pop();
                    onStack.remove(w);
                    component.add(w);
                } while (!w.equals(v));
                if (component.size() > 1) out.add(component);
            }
        }
    }
}

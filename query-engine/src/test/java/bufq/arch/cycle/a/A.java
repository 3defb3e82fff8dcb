package bufq.arch.cycle.a;

import bufq.arch.cycle.b.B;

/** Half of a package cycle that {@code ArchitectureTest.PackageCycleTest} must report. */
public final class A {
    public B partner() { return new B(); }
}

package bufq.arch.cycle.b;

import bufq.arch.cycle.a.A;

/** The other half of the package cycle that {@code ArchitectureTest.PackageCycleTest} must report. */
public final class B {
    public A partner() { return new A(); }
}

package bufq.shell;

/** Entry point of the {@code bufq} jar; all behaviour lives in {@link Bufq#run}. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(new Bufq().run(args, System.in, System.out, System.err));
    }
}

package bufq.shell.session;

/** bufq's version, as the banner, {@code --version} and scripts' {@code bufq.version} print it. */
public final class Version {
    private Version() {}

    public static final String NUMBER = "0.1.0";
}

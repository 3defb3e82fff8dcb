package bufq.shell.server;

import bufq.shell.Bufq;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code bufq --server start|stop|status}: starts the resident {@link Server} in the background, asks it, stops it. */
public final class ServerControl {
    private ServerControl() {}

    public static final List<String> ACTIONS = List.of("start", "stop", "status");

    public static int run(String action, Map<String, String> env, PrintStream out, PrintStream err) {
        Path socket = Wire.socket();
        return switch (action) {
            case "status" -> {
                int code = ask(socket, "status", env, out, err);
                if (code == Wire.FALLBACK) {
                    out.println("bufq server: not running (socket " + socket + ")");
                    yield Bufq.FAILED;
                }
                yield code;
            }
            case "stop" -> {
                int code = ask(socket, "stop", env, out, err);
                if (code == Wire.FALLBACK) {
                    out.println("bufq server: not running");
                    yield Bufq.OK;
                }
                yield code;
            }
            case "start" -> start(socket, env, out, err);
            default -> {
                err.println("bufq: unknown server action '" + action + "' (expected start, stop or status)");
                yield Bufq.USAGE;
            }
        };
    }

    private static int ask(Path socket, String kind, Map<String, String> env, PrintStream out, PrintStream err) {
        return Client.run(socket, kind, new String[0], env, Path.of("").toAbsolutePath(), true,
                new ByteArrayInputStream(new byte[0]), out, err);
    }

    private static int start(Path socket, Map<String, String> env, PrintStream out, PrintStream err) {
        ByteArrayOutputStream probe = new ByteArrayOutputStream();
        int code = ask(socket, "status", env, new PrintStream(probe), new PrintStream(new ByteArrayOutputStream()));
        if (code == Bufq.OK) {
            out.println("bufq server: already running");
            out.print(probe.toString(StandardCharsets.UTF_8).lines().skip(1).map(l -> l + "\n").collect(java.util.stream.Collectors.joining()));
            return Bufq.OK;
        }
        if (Server.alive(socket)) {
            // Something answers but refused us: a server of another build of this checkout stops
            // itself on that refusal; give it a moment.
            for (int i = 0; i < 50 && Server.alive(socket); i++) sleep(100);
        }
        Path log = socket.resolveSibling(socket.getFileName().toString().replaceFirst("\\.sock$", "") + ".log");
        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) cmd.add("/usr/bin/setsid"); // out of the terminal's session: closing it does not stop the server
        cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmOptions(env));
        cmd.add("-Dbufq.server.socket=" + socket);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Server.class.getName());
        String idle = env.getOrDefault("BUFQ_SERVER_IDLE", "60");
        try {
            if (Long.parseLong(idle) < 0) throw new NumberFormatException();
        } catch (NumberFormatException e) {
            err.println("bufq: BUFQ_SERVER_IDLE must be a number of minutes (0: no limit), not '" + idle + "'");
            return Bufq.USAGE;
        }
        cmd.add("--idle");
        cmd.add(idle);
        Process p;
        try {
            Files.createDirectories(socket.getParent(),
                    java.nio.file.attribute.PosixFilePermissions.asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
            p = new ProcessBuilder(cmd).redirectInput(new File("/dev/null"))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectErrorStream(true).start();
        } catch (IOException | UnsupportedOperationException e) {
            err.println("bufq: cannot start the server: " + e.getMessage());
            return Bufq.FAILED;
        }
        // Up when it answers; a server that could not start has exited and said why in its log.
        for (int i = 0; i < 300; i++) {
            ByteArrayOutputStream status = new ByteArrayOutputStream();
            if (ask(socket, "status", env, new PrintStream(status), new PrintStream(new ByteArrayOutputStream())) == Bufq.OK) {
                out.println("bufq server: started (pid " + pidOf(status) + "); batch runs (-c, -f, piped statements) now go through it");
                out.println("  socket: " + socket);
                out.println("  log: " + log);
                out.println("  stop it with 'bufq --server stop'; it stops by itself after "
                        + (idle.equals("0") ? "no idle time (BUFQ_SERVER_IDLE=0)" : idle + " min without a request"));
                return Bufq.OK;
            }
            if (!p.isAlive() && p.exitValue() != 0) break;   // (setsid may fork and exit 0 at once)
            sleep(100);
        }
        err.println("bufq: the server did not start; see " + log);
        return Bufq.FAILED;
    }

    private static String pidOf(ByteArrayOutputStream status) {
        String s = status.toString(StandardCharsets.UTF_8);
        int i = s.indexOf("pid ");
        if (i < 0) return "?";
        int j = i + 4;
        while (j < s.length() && Character.isDigit(s.charAt(j))) j++;
        return s.substring(i + 4, j);
    }

    /**
     * The server's JVM options: the launcher's garbage-collector choices, its heap rules, and
     * BUFQ_JAVA_OPTS; not its batch ones (C1 only, the class-data archive): the server lives long.
     *
     * <ul>
     * <li>{@code -XX:PerMethodTrapLimit=0}: C2 compiles both sides of a branch instead of betting on
     * the profile. The warm-up reads small examples, which teach it that the paths of a big dump
     * (tables that grow, long sections, big sorts) never run; the first big read then threw that
     * code away and ran interpreted while C2 compiled again. The first read of the 28 MB module
     * after a warm-up: 630-830 ms of CPU without the flag, 280-400 ms with it.
     * <li>A young generation of 1.5 GB where memory allows (16 GB or more): reading the 28 MB
     * module allocates about 150 MB, and a collection during a read copies the half-built module
     * (40-80 ms); with 1.5 GB most reads finish before the next collection. The warm-up touches
     * all of it: an idle server holds about 1.3 GB once warm (BUFQ_JAVA_OPTS with -Xms, -Xmn or
     * -Xmx sizes the heap instead).
     * </ul>
     */
    static List<String> jvmOptions(Map<String, String> env) {
        List<String> o = new ArrayList<>(List.of("-XX:+UseParallelGC", "-XX:MaxTenuringThreshold=0", "-Xss8m",
                "-XX:PerMethodTrapLimit=0"));
        String extra = env.getOrDefault("BUFQ_JAVA_OPTS", "").trim();
        long memory = physicalMemory();
        if (!extra.matches(".*-Xm[snx].*")) {
            if (memory >= 16_000_000_000L) o.addAll(List.of("-Xms2g", "-Xmn1536m"));
            else if (memory >= 8_000_000_000L) o.add("-Xms1g");
        }
        if (!extra.isEmpty()) o.addAll(List.of(extra.split("\\s+")));
        return o;
    }

    private static long physicalMemory() {
        try {
            return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
        } catch (RuntimeException | LinkageError e) {
            return 0;
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package bufq.shell.sql;

import bufq.model.HloModule;
import bufq.shell.session.DumpIds;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The keys of one module's rows (see {@link Schema#KEYS}). The fingerprint is the first 16 bytes of
 * the SHA-256 of its files' contents in the order they were read, names left out: the same
 * compilation gives the same fingerprint in every run and under every path (a profile capture's
 * programs, one file for all, also hash their name and number); null for a module read from no file.
 */
record ModuleKeys(String dump, String handle, String module, String program, String moduleId, String fingerprint, String backend,
                  String jaxVersion, String jaxlibVersion) {
    /**
     * The keys of {@code m}; {@code sharedName}: another program of its dump has its name, so its
     * {@code module} takes XLA's module number after it ({@code jit__normal#0010}) and
     * {@code group by module} never merges the two. The plain name is {@code program}.
     */
    static ModuleKeys of(HloModule m, boolean sharedName) throws IOException {
        List<String> files = m.info().files();
        String dump = folder(files);
        String id = DumpIds.of(files);
        String module = sharedName && id != null ? m.info().name() + "#" + id : m.info().name();
        return new ModuleKeys(dump, m.handle(), module, m.info().name(), id, fingerprint(m), m.info().backend(),
                m.info().jaxVersion(), m.info().jaxlibVersion());
    }

    /** The folder a module was read from (of its first file), null for one read from no file. */
    static String folder(List<String> files) {
        if (files.isEmpty()) return null;
        Path parent = file(files.get(0)).getParent();
        return parent == null ? "." : parent.toString();
    }

    /** The keys in {@link Schema#KEYS}' order. */
    List<Object> cells() {
        return Arrays.asList(dump, handle, module, program, moduleId, fingerprint, backend, jaxVersion, jaxlibVersion);
    }

    /** The file {@code name} is in: a capture's program is named {@code profile.xplane.pb#jit_f(12)}. */
    private static Path file(String name) {
        int hash = name.lastIndexOf('#');
        if (hash > 0 && !Files.exists(Path.of(name))) return Path.of(name.substring(0, hash));
        return Path.of(name);
    }

    private static String fingerprint(HloModule m) throws IOException {
        List<String> files = m.info().files();
        if (files.isEmpty()) return null;
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
        byte[] buf = new byte[1 << 16];
        for (String f : files) {
            try (InputStream in = Files.newInputStream(file(f))) {
                for (int n; (n = in.read(buf)) > 0; ) sha.update(buf, 0, n);
            }
        }
        // A capture holds every program of a run in one file: its program tells them apart.
        if (DumpIds.capture(files)) sha.update((m.info().name() + "#" + DumpIds.of(files)).getBytes(StandardCharsets.UTF_8));
        byte[] d = sha.digest();
        return HexFormat.of().formatHex(d, 0, 16);
    }
}

package dev.ralon.cli;

/**
 * Where the walk's directory reader is chosen: each command that walks the tree ({@code check}'s listing,
 * {@code status}, {@code run}, and every command that discovers the tree's policies, {@code check PATH} included,
 * {@link PolicyOption#load}) calls {@link #install} before its walk, so the commands that never walk (the hook,
 * {@code --policy}) load nothing of it.
 */
final class WalkReader {
    private static boolean installed;

    private WalkReader() {
    }

    /**
     * Installs {@link Getdents64Reader} for this process's walks when the native layer knows this machine and the JVM
     * reads file names as UTF-8 (else the walk keeps Java's own reader); once per process.
     */
    static synchronized void install() {
        if (installed) {
            return;
        }
        installed = true;
        if (Getdents64Reader.supported() && dev.ralon.policy.FileNames.jvmReadsUtf8()) {
            // walks read entry types from the listing (JNA is loaded only when a walk gets that far)
            dev.ralon.policy.walk.DirectoryReader.use(new Getdents64Reader());
        }
    }
}

import com.sun.jna.StringArray;
import dev.ralon.linux.LibC;

/**
 * The least a JNA-based Landlock start does, for bench/floor.sh: JNA's initialisation (java.util.logging, its native
 * library), the binding of Ralon's own {@link LibC}, the Landlock ABI probe (one landlock_create_ruleset(2) with
 * LANDLOCK_CREATE_RULESET_VERSION; 444 on x86_64 and aarch64 alike: include/uapi/asm-generic/unistd.h) and
 * execve(2) of {@code /bin/true}. No policy, no plan, no rule. {@code Floor train} prints the ABI and exits instead
 * (the training run that makes this program's archive or cache).
 */
public final class Floor {
    private Floor() {
    }

    public static void main(String[] args) {
        long abi = LibC.syscall(444L, 0L, 0L, 1L, 0L);
        if (args.length > 0) {
            System.out.println("landlock ABI " + abi);
            return;
        }
        LibC.execve("/bin/true", new StringArray(new String[] {"true"}), new StringArray(new String[] {"PATH=/bin"}));
    }
}

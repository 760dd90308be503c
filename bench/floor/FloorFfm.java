import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * {@link Floor}'s twin on the JDK's own foreign-function API (JDK 22+, java.lang.foreign), for bench/floor.sh: the
 * least a landlock start on FFM does: the linker, two downcall handles (syscall(2), variadic after its number, and
 * execve(2)), the Landlock ABI probe (landlock_create_ruleset(2) with LANDLOCK_CREATE_RULESET_VERSION, syscall 444 on
 * x86_64 and aarch64: include/uapi/asm-generic/unistd.h) and execve of {@code /bin/true}. No native library of its
 * own, nothing unpacked. {@code FloorFfm train} prints the ABI and exits instead (the training run of its cache).
 */
public final class FloorFfm {
    private FloorFfm() {
    }

    public static void main(String[] args) throws Throwable {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        MethodHandle syscall = linker.downcallHandle(libc.find("syscall").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                Linker.Option.firstVariadicArg(1));
        long abi = (long) syscall.invokeExact(444L, 0L, 0L, 1L);
        if (args.length > 0) {
            System.out.println("landlock ABI " + abi);
            return;
        }
        MethodHandle execve = linker.downcallHandle(libc.find("execve").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS));
        Arena arena = Arena.ofConfined();
        MemorySegment argv = arena.allocate(ValueLayout.ADDRESS, 2);
        argv.setAtIndex(ValueLayout.ADDRESS, 0, arena.allocateFrom("true"));
        MemorySegment envp = arena.allocate(ValueLayout.ADDRESS, 2);
        envp.setAtIndex(ValueLayout.ADDRESS, 0, arena.allocateFrom("PATH=/bin"));
        int rc = (int) execve.invokeExact(arena.allocateFrom("/bin/true"), argv, envp);
        System.exit(rc == 0 ? 0 : 1);
    }
}

package dev.ralon.linux;

import com.sun.jna.Memory;
import com.sun.jna.Native;

/**
 * Waiting for one descriptor to become readable, bounded: poll(2) on a single {@code struct pollfd}, with
 * {@code EINTR} retried until the deadline (a signal to the waiting process is not an answer).
 */
public final class Poll {
    // <poll.h>: struct pollfd { int fd; short events; short revents; }; POLLIN, POLLHUP
    private static final short POLLIN = 0x1;
    private static final short POLLHUP = 0x10;
    private static final int EINTR = 4;

    /** What the descriptor is. */
    public enum Readiness {
        /** Data to read (possibly beside a hang-up: read it first). */
        READABLE,
        /** Nothing to read, and the other side is gone: a socket's peer closed, a seccomp listener's last process. */
        HUNG_UP,
        /** Neither within the time given. */
        TIMED_OUT
    }

    private Poll() {
    }

    /**
     * Waits at most {@code timeoutMillis} (0: only looks) for {@code fd} to become readable or hang up.
     *
     * @throws java.io.IOException when poll(2) fails for another reason than a signal
     */
    public static Readiness await(int fd, int timeoutMillis) throws java.io.IOException {
        Memory pfd = new Memory(8);
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        int left = timeoutMillis;
        while (true) {
            pfd.setInt(0, fd);
            pfd.setShort(4, POLLIN);
            pfd.setShort(6, (short) 0);
            int r = LibC.poll(pfd, 1, left);
            if (r > 0) {
                short revents = pfd.getShort(6);
                return (revents & POLLIN) != 0 ? Readiness.READABLE
                        : (revents & POLLHUP) != 0 ? Readiness.HUNG_UP : Readiness.TIMED_OUT;
            }
            if (r == 0) {
                return Readiness.TIMED_OUT;
            }
            int errno = Native.getLastError();
            if (errno != EINTR) {
                throw new java.io.IOException("poll: " + Errno.text(errno));
            }
            left = (int) Math.max(0, (deadline - System.nanoTime()) / 1_000_000L);
        }
    }
}

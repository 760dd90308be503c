package dev.ralon.linux;

import com.sun.jna.Memory;
import com.sun.jna.Native;

import java.io.IOException;
import java.util.Arrays;

/**
 * A Unix socket pair carrying short messages and, with one of them, a descriptor (unix(7), SCM_RIGHTS): how ralon
 * hands the landlock broker its listener. SOCK_SEQPACKET keeps message boundaries and says "end" when the other side
 * is gone (recvmsg returns 0), so a broker whose ralon died before the hand-over ends instead of waiting.
 *
 * <p>Layouts (LP64, x86_64 and aarch64; include/linux/socket.h, bits/socket.h): {@code struct msghdr} is
 * {@code {void *name; socklen_t namelen; (pad); struct iovec *iov; size_t iovlen; void *control; size_t controllen;
 * int flags; (pad)}} = 56 bytes; {@code struct iovec} {@code {void *base; size_t len}} = 16; {@code struct cmsghdr}
 * {@code {size_t len; int level; int type; data}}: CMSG_LEN(4) = 20, CMSG_SPACE(4) = 24.
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("the landlock broker's channel")
public final class DescriptorChannel {
    static final int AF_UNIX = 1;
    static final int SOCK_SEQPACKET = 5;
    static final int SOL_SOCKET = 1;
    static final int SCM_RIGHTS = 1;
    static final int MSG_CMSG_CLOEXEC = 0x40000000;
    static final int MSG_NOSIGNAL = 0x4000;
    /** The longest message: a path (PATH_MAX) and its kind. */
    public static final int MAX_MESSAGE = 4097;

    private DescriptorChannel() {
    }

    /** Two connected ends, both close-on-exec. */
    public static int[] pair() throws ExecException {
        int[] sv = new int[2];
        if (LibC.socketpair(AF_UNIX, SOCK_SEQPACKET | LinuxAbi.O_CLOEXEC, 0, sv) != 0) {
            throw new ExecException("cannot make the broker's channel: " + Errno.text(Native.getLastError())
                    + " (socketpair)");
        }
        return sv;
    }

    /** Sends {@code data} as one message, with a copy of descriptor {@code fd} when it is not -1. */
    public static void send(int socket, byte[] data, int fd) throws IOException {
        if (data.length == 0 || data.length > MAX_MESSAGE) {
            throw new IllegalArgumentException("message of " + data.length + " bytes");
        }
        Memory buf = new Memory(data.length);
        buf.write(0, data, 0, data.length);
        Memory iov = new Memory(16);
        iov.setPointer(0, buf);
        iov.setLong(8, data.length);
        Memory msg = new Memory(56);
        msg.clear();
        msg.setPointer(16, iov);
        msg.setLong(24, 1);
        Memory control = null;
        if (fd >= 0) {
            control = new Memory(24);
            control.clear();
            control.setLong(0, 20); // CMSG_LEN(sizeof(int))
            control.setInt(8, SOL_SOCKET);
            control.setInt(12, SCM_RIGHTS);
            control.setInt(16, fd);
            msg.setPointer(32, control);
            msg.setLong(40, 24);
        }
        try {
            if (LibC.sendmsg(socket, msg, MSG_NOSIGNAL) != data.length) {
                throw new IOException("sendmsg: " + Errno.text(Native.getLastError()));
            }
        } finally {
            java.lang.ref.Reference.reachabilityFence(buf);
            java.lang.ref.Reference.reachabilityFence(iov);
            java.lang.ref.Reference.reachabilityFence(msg);
            java.lang.ref.Reference.reachabilityFence(control);
        }
    }

    /** One message received: its bytes, and the descriptor it carried (close-on-exec), or -1. */
    public record Message(byte[] data, int fd) {
        public Message {
            data = data.clone();
        }

        @Override
        public byte[] data() {
            return data.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Message m && m.fd == fd && Arrays.equals(m.data, data);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(data) * 31 + fd;
        }

        @Override
        public String toString() {
            return "Message[" + data.length + " bytes, fd " + fd + "]";
        }
    }

    /**
     * The next message, waiting at most {@code timeoutMillis}; null at the end (the other side closed) or when none
     * came in time.
     */
    public static Message receive(int socket, int timeoutMillis) throws IOException {
        if (Poll.await(socket, timeoutMillis) == Poll.Readiness.TIMED_OUT) {
            return null;
        }
        Memory buf = new Memory(MAX_MESSAGE);
        Memory iov = new Memory(16);
        iov.setPointer(0, buf);
        iov.setLong(8, MAX_MESSAGE);
        Memory control = new Memory(24);
        control.clear();
        Memory msg = new Memory(56);
        msg.clear();
        msg.setPointer(16, iov);
        msg.setLong(24, 1);
        msg.setPointer(32, control);
        msg.setLong(40, 24);
        try {
            long n = LibC.recvmsg(socket, msg, MSG_CMSG_CLOEXEC);
            if (n < 0) {
                throw new IOException("recvmsg: " + Errno.text(Native.getLastError()));
            }
            if (n == 0) {
                return null;
            }
            int fd = -1;
            if (msg.getLong(40) >= 20 && control.getInt(8) == SOL_SOCKET && control.getInt(12) == SCM_RIGHTS) {
                fd = control.getInt(16);
            }
            return new Message(buf.getByteArray(0, (int) n), fd);
        } finally {
            java.lang.ref.Reference.reachabilityFence(buf);
            java.lang.ref.Reference.reachabilityFence(iov);
            java.lang.ref.Reference.reachabilityFence(msg);
            java.lang.ref.Reference.reachabilityFence(control);
        }
    }

    /** Closes {@code fd}, ignoring errors (it is not used again). */
    public static void close(int fd) {
        if (fd >= 0) {
            LibC.close(fd);
        }
    }
}

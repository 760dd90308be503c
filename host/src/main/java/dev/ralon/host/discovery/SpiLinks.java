package dev.ralon.host.discovery;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.invoke.MethodType;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Whether a plugin jar was built against the SPI this ralon has: every reference its classes make to a type, method,
 * constructor or field of {@code dev.ralon.enforcer.spi} is looked up in the running SPI, as the JVM would resolve it
 * when the call first runs (JVMS 5.4.3: lazily, so a stale jar otherwise loads, is listed as available, and fails in
 * {@code prepare} with {@code IllegalAccessError} or {@code NoSuchMethodError}: seen with {@code new Launch(...)} after
 * {@code Launch} became a class built by {@code Launch.of}). Read from each class file's constant pool (JVMS 4.4:
 * {@code CONSTANT_Class}, {@code Fieldref}, {@code Methodref}, {@code InterfaceMethodref}); a member counts as present
 * when the class or one of its supertypes declares it public or protected with that descriptor.
 *
 * <p>Hand-written rather than a library: the JDK's class-file API (java.lang.classfile) needs Java 24 and Ralon's
 * bytecode is Java 17; ASM is not among the project's dependencies; the constant pool's layout is all that is read.
 */
final class SpiLinks {
    static final String SPI_PREFIX = "dev/ralon/enforcer/spi/";
    /** How many unresolved references are named in the one line. */
    static final int NAMED = 2;

    private SpiLinks() {
    }

    /**
     * The references of {@code jar}'s classes to the SPI that this SPI cannot resolve, in a few words each
     * ({@code Launch.<init>(Path, List, Map)}), resolving descriptor types through {@code loader} (the plugin's); empty
     * when the jar links.
     *
     * @throws IOException when the jar or a class file in it cannot be read
     */
    static List<String> unresolved(Path jar, ClassLoader loader) throws IOException {
        Set<String> out = new LinkedHashSet<>();
        try (JarFile f = new JarFile(jar.toFile())) {
            for (JarEntry e : java.util.Collections.list(f.entries())) {
                if (!e.getName().endsWith(".class") || e.getName().endsWith("module-info.class")) {
                    continue;
                }
                byte[] bytes;
                try (var in = f.getInputStream(e)) {
                    bytes = in.readAllBytes();
                }
                for (Ref r : references(bytes)) {
                    String why = check(r, loader);
                    if (why != null) {
                        out.add(why);
                    }
                }
            }
        }
        return List.copyOf(out);
    }

    /** A reference to the SPI: the owner's internal name, and for a member its kind, name and descriptor. */
    record Ref(String owner, char kind, String name, String descriptor) {
    }

    /** The SPI references of one class file (JVMS 4.1, 4.4). */
    static List<Ref> references(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort(); // minor
        in.readUnsignedShort(); // major
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        int[] classNameIndex = new int[count];
        int[][] member = new int[count][]; // {class index, name-and-type index, tag}
        int[][] nameAndType = new int[count][];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF(); // modified UTF-8, as DataInput reads it
                case 3, 4 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++; // takes two entries (JVMS 4.4.5)
                }
                case 7 -> classNameIndex[i] = in.readUnsignedShort();
                case 8, 16, 19, 20 -> in.readUnsignedShort();
                case 9, 10, 11 -> member[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort(), tag};
                case 12 -> nameAndType[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
                case 15 -> {
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                case 17, 18 -> in.readInt();
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        List<Ref> out = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            if (classNameIndex[i] != 0 && utf8[classNameIndex[i]] != null
                    && utf8[classNameIndex[i]].startsWith(SPI_PREFIX)) {
                out.add(new Ref(utf8[classNameIndex[i]], 'C', null, null));
            }
            if (member[i] != null) {
                String owner = utf8[classNameIndex[member[i][0]]];
                if (owner != null && owner.startsWith(SPI_PREFIX)) {
                    int[] nt = nameAndType[member[i][1]];
                    out.add(new Ref(owner, member[i][2] == 9 ? 'F' : 'M', utf8[nt[0]], utf8[nt[1]]));
                }
            }
        }
        return out;
    }

    /** Null when {@code r} resolves against the running SPI, else what is missing, in a few words. */
    static String check(Ref r, ClassLoader loader) {
        String simple = r.owner().substring(SPI_PREFIX.length()).replace('/', '.');
        Class<?> owner;
        try {
            owner = Class.forName(r.owner().replace('/', '.'), false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return "the type " + simple;
        }
        if (r.kind() == 'C') {
            return Modifier.isPublic(owner.getModifiers()) ? null : "the type " + simple + " (not public)";
        }
        String shown = simple + "." + r.name() + (r.kind() == 'F' ? "" : params(r.descriptor(), loader));
        try {
            if (r.kind() == 'F') {
                for (Class<?> c = owner; c != null; c = c.getSuperclass()) {
                    for (java.lang.reflect.Field f : c.getDeclaredFields()) {
                        if (f.getName().equals(r.name()) && visible(f.getModifiers())
                                && f.getType().descriptorString().equals(r.descriptor())) {
                            return null;
                        }
                    }
                }
                return shown;
            }
            if (r.name().equals("<init>")) {
                for (java.lang.reflect.Constructor<?> k : owner.getDeclaredConstructors()) {
                    if (visible(k.getModifiers()) && MethodType.methodType(void.class, k.getParameterTypes())
                            .toMethodDescriptorString().equals(r.descriptor())) {
                        return null;
                    }
                }
                return shown;
            }
            for (Class<?> c : supertypes(owner)) {
                for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
                    if (m.getName().equals(r.name()) && visible(m.getModifiers()) && MethodType.methodType(
                            m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString().equals(r.descriptor())) {
                        return null;
                    }
                }
            }
        } catch (LinkageError e) {
            return shown;
        }
        return shown;
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    /** {@code c}, its superclasses and every interface of each, each once. */
    private static List<Class<?>> supertypes(Class<?> c) {
        List<Class<?>> out = new ArrayList<>();
        java.util.ArrayDeque<Class<?>> todo = new java.util.ArrayDeque<>(List.of(c));
        while (!todo.isEmpty()) {
            Class<?> t = todo.poll();
            if (t == null || out.contains(t)) {
                continue;
            }
            out.add(t);
            if (t.getSuperclass() != null) {
                todo.add(t.getSuperclass());
            }
            todo.addAll(List.of(t.getInterfaces()));
        }
        if (c.isInterface()) {
            out.add(Object.class);
        }
        return out;
    }

    /** A method descriptor's parameters by simple name, "(Path, List, Map)"; the raw descriptor when unparseable. */
    private static String params(String descriptor, ClassLoader loader) {
        try {
            MethodType t = MethodType.fromMethodDescriptorString(descriptor, loader);
            List<String> names = new ArrayList<>();
            for (Class<?> p : t.parameterList()) {
                names.add(p.getSimpleName());
            }
            return "(" + String.join(", ", names) + ")";
        } catch (IllegalArgumentException | TypeNotPresentException | LinkageError e) {
            return descriptor;
        }
    }
}

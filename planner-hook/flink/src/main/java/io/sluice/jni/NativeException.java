package io.sluice.jni;

/** An error or panic raised inside Sluice's native (Go) library, carrying its message. */
public class NativeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NativeException(String message) {
        super(message);
    }
}

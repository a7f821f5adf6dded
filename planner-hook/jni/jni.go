// Command jni is Sluice's shared library (built with -buildmode=c-shared) and the only place
// where Go meets the JVM. Each exported function matches a native method of
// io.sluice.jni.NativeLib, recovers every panic, and turns errors and panics into
// io.sluice.jni.NativeException. Native objects cross the boundary as runtime/cgo handles.
package main

/*
#include <jni.h>
#include <stdlib.h>

static jbyteArray sluice_new_bytes(JNIEnv* env, const void* p, jsize n) {
	jbyteArray a = (*env)->NewByteArray(env, n);
	if (a != NULL) (*env)->SetByteArrayRegion(env, a, 0, n, (const jbyte*)p);
	return a;
}
static jsize sluice_array_len(JNIEnv* env, jbyteArray a) { return (*env)->GetArrayLength(env, a); }
static void sluice_get_bytes(JNIEnv* env, jbyteArray a, jsize n, void* dst) {
	(*env)->GetByteArrayRegion(env, a, 0, n, (jbyte*)dst);
}
static void* sluice_buf_addr(JNIEnv* env, jobject b) { return (*env)->GetDirectBufferAddress(env, b); }
static jlong sluice_buf_cap(JNIEnv* env, jobject b) { return (*env)->GetDirectBufferCapacity(env, b); }
static void sluice_throw(JNIEnv* env, const char* msg) {
	jclass c = (*env)->FindClass(env, "io/sluice/jni/NativeException");
	if (c != NULL) (*env)->ThrowNew(env, c, msg);
}
*/
import "C"

import (
	"fmt"
	"runtime/cgo"
	"runtime/debug"
	"unsafe"

	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/runtime/chain"
	"github.com/sluice-project/sluice/runtime/keyrouting"
)

func main() {}

// throw raises NativeException in the calling Java thread; the native method then returns.
func throw(env *C.JNIEnv, msg string) {
	cs := C.CString(msg)
	defer C.free(unsafe.Pointer(cs))
	C.sluice_throw(env, cs)
}

// guard converts a panic into a Java exception. Use as `defer guard(env, "what")`.
func guard(env *C.JNIEnv, what string) {
	if r := recover(); r != nil {
		throw(env, fmt.Sprintf("sluice native panic in %s: %v\n%s", what, r, debug.Stack()))
	}
}

func goBytes(env *C.JNIEnv, a C.jbyteArray) []byte {
	n := C.sluice_array_len(env, a)
	b := make([]byte, int(n))
	if n > 0 {
		C.sluice_get_bytes(env, a, n, unsafe.Pointer(&b[0]))
	}
	return b
}

func javaBytes(env *C.JNIEnv, b []byte) C.jbyteArray {
	var p unsafe.Pointer
	if len(b) > 0 {
		p = unsafe.Pointer(&b[0])
	}
	return C.sluice_new_bytes(env, p, C.jsize(len(b)))
}

// directBuffer returns the memory of a direct ByteBuffer.
func directBuffer(env *C.JNIEnv, buf C.jobject) ([]byte, error) {
	addr := C.sluice_buf_addr(env, buf)
	capacity := int(C.sluice_buf_cap(env, buf))
	if addr == nil || capacity < 0 {
		return nil, fmt.Errorf("not a direct ByteBuffer")
	}
	return unsafe.Slice((*byte)(addr), capacity), nil
}

// pairBuffer returns the first 2*n longs of a direct ByteBuffer that holds n pairs of longs
// (markers, arrival runs, exchange parts), or an error naming what when it is too small.
func pairBuffer(env *C.JNIEnv, buf C.jobject, n int, what string) ([]int64, error) {
	b, err := directBuffer(env, buf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if n < 0 || len(b) < 16*n {
		return nil, fmt.Errorf("%s: %d bytes for %d pairs", what, len(b), n)
	}
	if n == 0 {
		return nil, nil
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(&b[0])), 2*n), nil
}

func int32s(b []byte) []int32 {
	if len(b) < 4 {
		return nil
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(&b[0])), len(b)/4)
}

//export Java_io_sluice_jni_NativeLib_verdict
func Java_io_sluice_jni_NativeLib_verdict(env *C.JNIEnv, _ C.jclass, planJSON C.jbyteArray) (res C.jbyteArray) {
	defer guard(env, "verdict")
	out, err := plan.JudgeJSON(goBytes(env, planJSON))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return javaBytes(env, out)
}

//export Java_io_sluice_jni_NativeLib_open
func Java_io_sluice_jni_NativeLib_open(env *C.JNIEnv, _ C.jclass, planJSON C.jbyteArray) C.jlong {
	defer guard(env, "open")
	p, err := chain.Open(goBytes(env, planJSON))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(cgo.NewHandle(p))
}

func pipelineOf(h C.jlong) (*chain.Chain, error) {
	return handleOf[*chain.Chain](h)
}

// handleOf returns the native object behind a handle, checked to be a T.
func handleOf[T any](h C.jlong) (T, error) {
	var zero T
	if h == 0 {
		return zero, fmt.Errorf("native pipeline handle is 0 (closed or never opened)")
	}
	p, ok := cgo.Handle(h).Value().(T)
	if !ok {
		return zero, fmt.Errorf("handle %d is a %T, not a %T", h, cgo.Handle(h).Value(), zero)
	}
	return p, nil
}

//export Java_io_sluice_jni_NativeLib_process
func Java_io_sluice_jni_NativeLib_process(env *C.JNIEnv, _ C.jclass, h C.jlong, inData, inOffsets C.jobject, rows C.jint, outData, outOffsets C.jobject) C.jlong {
	defer guard(env, "process")
	return chainCall(env, h, outData, outOffsets, func(p *chain.Chain) error {
		data, offsets, err := inputRows(env, inData, inOffsets, int(rows))
		if err != nil {
			return err
		}
		return p.Process(data, offsets)
	})
}

// inputRows returns a batch of rows that Java wrote into direct buffers: the row bytes and
// rows+1 offsets.
func inputRows(env *C.JNIEnv, inData, inOffsets C.jobject, rows int) ([]byte, []int32, error) {
	data, err := directBuffer(env, inData)
	if err != nil {
		return nil, nil, fmt.Errorf("input data: %w", err)
	}
	offs, err := directBuffer(env, inOffsets)
	if err != nil {
		return nil, nil, fmt.Errorf("input offsets: %w", err)
	}
	o := int32s(offs)
	if rows < 0 || len(o) < rows+1 {
		return nil, nil, fmt.Errorf("input offsets hold %d entries for %d rows", len(o), rows)
	}
	return data, o[:rows+1], nil
}

// drain copies the chain's pending output into Java's buffers. It returns the number of rows
// with the number of watermark markers in the high 32 bits, or -1 when a buffer is too small
// (the output stays pending; see outputShape).
func drain(env *C.JNIEnv, p *chain.Chain, outData, outOffsets C.jobject) (int64, error) {
	out, offsets, sel := p.Output()
	data, err := directBuffer(env, outData)
	if err != nil {
		return 0, fmt.Errorf("output data: %w", err)
	}
	offBuf, err := directBuffer(env, outOffsets)
	if err != nil {
		return 0, fmt.Errorf("output offsets: %w", err)
	}
	m := len(offsets) - 1
	o := int32s(offBuf)
	if len(out) > len(data) || len(o) < 2*m+1 {
		return -1, nil // the output stays pending; Java asks for its shape and drains
	}
	copy(data, out)
	copy(o, offsets)
	copy(o[m+1:], sel)
	return int64(m) | int64(len(p.Markers()))<<32, nil
}

//export Java_io_sluice_jni_NativeLib_outputShape
func Java_io_sluice_jni_NativeLib_outputShape(env *C.JNIEnv, _ C.jclass, h C.jlong) C.jlong {
	defer guard(env, "outputShape")
	p, err := pipelineOf(h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	out, offsets, _ := p.Output()
	return C.jlong(int64(len(offsets)-1)<<32 | int64(len(out)))
}

//export Java_io_sluice_jni_NativeLib_drain
func Java_io_sluice_jni_NativeLib_drain(env *C.JNIEnv, _ C.jclass, h C.jlong, outData, outOffsets C.jobject) C.jlong {
	defer guard(env, "drain")
	p, err := pipelineOf(h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	if p.BatchOutput() {
		// The rows stay in Go; Java takes them as batches (outputBatch).
		return C.jlong(int64(p.OutputRows()) | int64(len(p.Markers()))<<32)
	}
	n, err := drain(env, p, outData, outOffsets)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	if n < 0 {
		throw(env, "output buffers still too small for the pending output")
		return 0
	}
	return C.jlong(n)
}

//export Java_io_sluice_jni_NativeLib_routeRows
func Java_io_sluice_jni_NativeLib_routeRows(env *C.JNIEnv, _ C.jclass, spec C.jbyteArray, inData, inOffsets C.jobject, rows C.jint, out C.jobject) {
	defer guard(env, "routeRows")
	err := func() error {
		data, offsets, err := inputRows(env, inData, inOffsets, int(rows))
		if err != nil {
			return err
		}
		dst, err := directBuffer(env, out)
		if err != nil {
			return fmt.Errorf("output: %w", err)
		}
		return keyrouting.RouteRows(goBytes(env, spec), data, offsets, int32s(dst))
	}()
	if err != nil {
		throw(env, err.Error())
	}
}

//export Java_io_sluice_jni_NativeLib_miniBatchWatermark
func Java_io_sluice_jni_NativeLib_miniBatchWatermark(env *C.JNIEnv, _ C.jclass, h C.jlong, watermark C.jlong, outData, outOffsets C.jobject) C.jlong {
	defer guard(env, "miniBatchWatermark")
	return chainCall(env, h, outData, outOffsets, func(p *chain.Chain) error { return p.MiniBatchWatermark(int64(watermark)) })
}

//export Java_io_sluice_jni_NativeLib_advanceWatermark
func Java_io_sluice_jni_NativeLib_advanceWatermark(env *C.JNIEnv, _ C.jclass, h C.jlong, watermark C.jlong, outData, outOffsets C.jobject) C.jlong {
	defer guard(env, "advanceWatermark")
	return chainCall(env, h, outData, outOffsets, func(p *chain.Chain) error { return p.AdvanceWatermark(int64(watermark)) })
}

//export Java_io_sluice_jni_NativeLib_prepareCheckpoint
func Java_io_sluice_jni_NativeLib_prepareCheckpoint(env *C.JNIEnv, _ C.jclass, h C.jlong, outData, outOffsets C.jobject) C.jlong {
	defer guard(env, "prepareCheckpoint")
	return chainCall(env, h, outData, outOffsets, (*chain.Chain).PrepareCheckpoint)
}

//export Java_io_sluice_jni_NativeLib_initializeWatermark
func Java_io_sluice_jni_NativeLib_initializeWatermark(env *C.JNIEnv, _ C.jclass, h C.jlong, watermark C.jlong) {
	defer guard(env, "initializeWatermark")
	p, err := pipelineOf(h)
	if err == nil {
		err = p.InitializeWatermark(int64(watermark))
	}
	if err != nil {
		throw(env, err.Error())
	}
}

//export Java_io_sluice_jni_NativeLib_snapshotKeyGroup
func Java_io_sluice_jni_NativeLib_snapshotKeyGroup(env *C.JNIEnv, _ C.jclass, h C.jlong, kg C.jint) C.jbyteArray {
	defer guard(env, "snapshotKeyGroup")
	p, err := pipelineOf(h)
	var blob []byte
	if err == nil {
		blob, err = p.Snapshot(int(kg))
	}
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	if blob == nil {
		return 0
	}
	return javaBytes(env, blob)
}

//export Java_io_sluice_jni_NativeLib_restoreKeyGroup
func Java_io_sluice_jni_NativeLib_restoreKeyGroup(env *C.JNIEnv, _ C.jclass, h C.jlong, kg C.jint, blob C.jbyteArray) {
	defer guard(env, "restoreKeyGroup")
	p, err := pipelineOf(h)
	if err == nil {
		err = p.Restore(int(kg), goBytes(env, blob))
	}
	if err != nil {
		throw(env, err.Error())
	}
}

//export Java_io_sluice_jni_NativeLib_lateRowsDropped
func Java_io_sluice_jni_NativeLib_lateRowsDropped(env *C.JNIEnv, _ C.jclass, h C.jlong) C.jlong {
	defer guard(env, "lateRowsDropped")
	p, err := pipelineOf(h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(p.LateDropped())
}

//export Java_io_sluice_jni_NativeLib_stateSize
func Java_io_sluice_jni_NativeLib_stateSize(env *C.JNIEnv, _ C.jclass, h C.jlong, keys C.jboolean) C.jlong {
	defer guard(env, "stateSize")
	p, err := pipelineOf(h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	if keys != 0 {
		return C.jlong(p.StateKeys())
	}
	return C.jlong(p.StateBytes())
}

//export Java_io_sluice_jni_NativeLib_emitPeriodicWatermark
func Java_io_sluice_jni_NativeLib_emitPeriodicWatermark(env *C.JNIEnv, _ C.jclass, h C.jlong, outData, outOffsets C.jobject) C.jlong {
	defer guard(env, "emitPeriodicWatermark")
	return chainCall(env, h, outData, outOffsets, (*chain.Chain).EmitPeriodicWatermark)
}

//export Java_io_sluice_jni_NativeLib_arrivals
func Java_io_sluice_jni_NativeLib_arrivals(env *C.JNIEnv, _ C.jclass, h C.jlong, runs C.jobject, count C.jint) {
	defer guard(env, "arrivals")
	p, err := pipelineOf(h)
	if err != nil {
		throw(env, err.Error())
		return
	}
	longs, err := pairBuffer(env, runs, int(count), "arrivals")
	if err != nil {
		throw(env, err.Error())
		return
	}
	list := make([]chain.Arrival, int(count))
	for i := range list {
		list[i] = chain.Arrival{FirstRow: longs[2*i], Time: longs[2*i+1]}
	}
	if err := p.SetArrivals(list); err != nil {
		throw(env, err.Error())
	}
}

//export Java_io_sluice_jni_NativeLib_advanceProcessingTime
func Java_io_sluice_jni_NativeLib_advanceProcessingTime(env *C.JNIEnv, _ C.jclass, h C.jlong, t C.jlong, outData, outOffsets C.jobject) C.jlong {
	defer guard(env, "advanceProcessingTime")
	return chainCall(env, h, outData, outOffsets, func(p *chain.Chain) error {
		return p.AdvanceProcessingTime(int64(t))
	})
}

//export Java_io_sluice_jni_NativeLib_nextProcessingTimer
func Java_io_sluice_jni_NativeLib_nextProcessingTimer(env *C.JNIEnv, _ C.jclass, h C.jlong) C.jlong {
	defer guard(env, "nextProcessingTimer")
	p, err := pipelineOf(h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(p.NextProcessingTimer())
}

//export Java_io_sluice_jni_NativeLib_markers
func Java_io_sluice_jni_NativeLib_markers(env *C.JNIEnv, _ C.jclass, h C.jlong, out C.jobject) C.jint {
	defer guard(env, "markers")
	p, err := pipelineOf(h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	ms := p.Markers()
	longs, err := pairBuffer(env, out, len(ms), "markers")
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	for i, m := range ms {
		longs[2*i], longs[2*i+1] = int64(m.Pos), m.Watermark
	}
	return C.jint(len(ms))
}

// chainCall runs one call of a chain that produces output, then drains it.
func chainCall(env *C.JNIEnv, h C.jlong, outData, outOffsets C.jobject, call func(*chain.Chain) error) C.jlong {
	p, err := pipelineOf(h)
	if err == nil {
		err = call(p)
	}
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	if p.BatchOutput() {
		// The rows stay in Go; Java takes them as batches (outputBatch).
		return C.jlong(int64(p.OutputRows()) | int64(len(p.Markers()))<<32)
	}
	n, err := drain(env, p, outData, outOffsets)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(n)
}

//export Java_io_sluice_jni_NativeLib_close
func Java_io_sluice_jni_NativeLib_close(env *C.JNIEnv, _ C.jclass, h C.jlong) {
	defer guard(env, "close")
	if h != 0 {
		handle := cgo.Handle(h)
		v := handle.Value()
		handle.Delete()
		// Readers close their files, batches drop their reference.
		if c, ok := v.(interface{ Close() error }); ok {
			if err := c.Close(); err != nil {
				throw(env, fmt.Sprintf("close: %v", err))
			}
		}
		if r, ok := v.(interface{ Release() }); ok {
			r.Release()
		}
	}
}

//export Java_io_sluice_jni_NativeLib_setMemoryLimit
func Java_io_sluice_jni_NativeLib_setMemoryLimit(env *C.JNIEnv, _ C.jclass, bytes C.jlong) C.jlong {
	defer guard(env, "setMemoryLimit")
	if bytes <= 0 {
		throw(env, fmt.Sprintf("Go memory limit must be positive, got %d", int64(bytes)))
		return 0
	}
	return C.jlong(debug.SetMemoryLimit(int64(bytes)))
}

//export Java_io_sluice_jni_NativeLib_debugPanic
func Java_io_sluice_jni_NativeLib_debugPanic(env *C.JNIEnv, _ C.jclass) {
	defer guard(env, "debugPanic")
	var boom []int
	_ = boom[len(boom)] // a real runtime panic (index out of range), not a returned error
}

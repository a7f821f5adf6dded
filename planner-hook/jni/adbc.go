package main

/*
#include <jni.h>
*/
import "C"

import (
	"runtime/cgo"

	"github.com/apache/arrow-go/v18/arrow"

	wh "github.com/sluice-project/sluice/catalog/adbc"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/runtime/scan"
	"github.com/sluice-project/sluice/runtime/sink"
)

// The ADBC sink: its description is checked when Flink creates the table's sink; each subtask
// opens a writer (fed with native batches or with Flink's rows), the committer commits the
// committables writers return at checkpoints.

//export Java_io_sluice_jni_NativeLib_adbcSinkCheck
func Java_io_sluice_jni_NativeLib_adbcSinkCheck(env *C.JNIEnv, _ C.jclass, desc C.jbyteArray) {
	defer guard(env, "adbcSinkCheck")
	if err := plan.CheckAdbcSink(goBytes(env, desc)); err != nil {
		throw(env, err.Error())
	}
}

//export Java_io_sluice_jni_NativeLib_adbcWriterOpen
func Java_io_sluice_jni_NativeLib_adbcWriterOpen(env *C.JNIEnv, _ C.jclass, sinkJSON, sinkID C.jbyteArray, subtask, parallelism C.jint, restored C.jlong) C.jlong {
	defer guard(env, "adbcWriterOpen")
	w, err := sink.OpenAdbcWriter(goBytes(env, sinkJSON), string(goBytes(env, sinkID)), int(subtask), int(parallelism), int64(restored))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(cgo.NewHandle(w))
}

//export Java_io_sluice_jni_NativeLib_adbcWriterWrite
func Java_io_sluice_jni_NativeLib_adbcWriterWrite(env *C.JNIEnv, _ C.jclass, h, batch C.jlong) {
	defer guard(env, "adbcWriterWrite")
	w, err := handleOf[*sink.AdbcWriter](h)
	if err == nil {
		var b arrow.RecordBatch
		if b, err = handleOf[arrow.RecordBatch](batch); err == nil {
			err = w.WriteBatch(b)
		}
	}
	if err != nil {
		throw(env, err.Error())
	}
}

//export Java_io_sluice_jni_NativeLib_adbcWriterWriteRows
func Java_io_sluice_jni_NativeLib_adbcWriterWriteRows(env *C.JNIEnv, _ C.jclass, h C.jlong, inData, inOffsets C.jobject, rows C.jint) {
	defer guard(env, "adbcWriterWriteRows")
	w, err := handleOf[*sink.AdbcWriter](h)
	if err == nil {
		var data []byte
		var offsets []int32
		if data, offsets, err = inputRows(env, inData, inOffsets, int(rows)); err == nil {
			err = w.WriteRows(data, offsets)
		}
	}
	if err != nil {
		throw(env, err.Error())
	}
}

//export Java_io_sluice_jni_NativeLib_adbcWriterFlush
func Java_io_sluice_jni_NativeLib_adbcWriterFlush(env *C.JNIEnv, _ C.jclass, h C.jlong) {
	defer guard(env, "adbcWriterFlush")
	w, err := handleOf[*sink.AdbcWriter](h)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		throw(env, err.Error())
	}
}

//export Java_io_sluice_jni_NativeLib_adbcWriterPrepareCommit
func Java_io_sluice_jni_NativeLib_adbcWriterPrepareCommit(env *C.JNIEnv, _ C.jclass, h C.jlong) C.jbyteArray {
	defer guard(env, "adbcWriterPrepareCommit")
	w, err := handleOf[*sink.AdbcWriter](h)
	var out []byte
	if err == nil {
		out, err = w.PrepareCommit()
	}
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return javaBytes(env, out)
}

//export Java_io_sluice_jni_NativeLib_adbcWriterSnapshotted
func Java_io_sluice_jni_NativeLib_adbcWriterSnapshotted(env *C.JNIEnv, _ C.jclass, h, checkpoint C.jlong) {
	defer guard(env, "adbcWriterSnapshotted")
	w, err := handleOf[*sink.AdbcWriter](h)
	if err != nil {
		throw(env, err.Error())
		return
	}
	w.Snapshotted(int64(checkpoint))
}

//export Java_io_sluice_jni_NativeLib_adbcCommitterOpen
func Java_io_sluice_jni_NativeLib_adbcCommitterOpen(env *C.JNIEnv, _ C.jclass, sinkJSON C.jbyteArray) C.jlong {
	defer guard(env, "adbcCommitterOpen")
	return openFromJSON(env, sinkJSON, sink.OpenAdbcCommitter)
}

//export Java_io_sluice_jni_NativeLib_adbcCommit
func Java_io_sluice_jni_NativeLib_adbcCommit(env *C.JNIEnv, _ C.jclass, h C.jlong, committable C.jbyteArray) C.jboolean {
	defer guard(env, "adbcCommit")
	c, err := handleOf[*sink.AdbcCommitter](h)
	committed := false
	if err == nil {
		committed, err = c.Commit(goBytes(env, committable))
	}
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	if committed {
		return 1
	}
	return 0
}

//export Java_io_sluice_jni_NativeLib_adbcCatalog
func Java_io_sluice_jni_NativeLib_adbcCatalog(env *C.JNIEnv, _ C.jclass, request C.jbyteArray) C.jbyteArray {
	defer guard(env, "adbcCatalog")
	out, err := wh.Serve(goBytes(env, request))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return javaBytes(env, out)
}

// The ADBC scan: its description is checked when Flink creates the table's source (which learns
// the number of splits); each split is read by a split reader, into native batches (splitNext)
// or into Flink's rows (adbcSplitRows).

//export Java_io_sluice_jni_NativeLib_adbcScanCheck
func Java_io_sluice_jni_NativeLib_adbcScanCheck(env *C.JNIEnv, _ C.jclass, desc C.jbyteArray) C.jint {
	defer guard(env, "adbcScanCheck")
	n, err := plan.CheckAdbcScan(goBytes(env, desc))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jint(n)
}

//export Java_io_sluice_jni_NativeLib_adbcSplitOpen
func Java_io_sluice_jni_NativeLib_adbcSplitOpen(env *C.JNIEnv, _ C.jclass, scanJSON C.jbyteArray, split C.jint, skip C.jlong) C.jlong {
	defer guard(env, "adbcSplitOpen")
	s, err := scan.OpenAdbcSplit(goBytes(env, scanJSON), int(split), int64(skip))
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	return C.jlong(cgo.NewHandle(&splitReader{r: s}))
}

//export Java_io_sluice_jni_NativeLib_adbcSplitRows
func Java_io_sluice_jni_NativeLib_adbcSplitRows(env *C.JNIEnv, _ C.jclass, h C.jlong) C.jbyteArray {
	defer guard(env, "adbcSplitRows")
	s, err := handleOf[*splitReader](h)
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	a, ok := s.r.(*scan.AdbcSplit)
	if !ok {
		throw(env, "adbcSplitRows: not an ADBC split")
		return 0
	}
	rows, err := a.NextRows()
	if err != nil {
		throw(env, err.Error())
		return 0
	}
	if rows == nil {
		return 0
	}
	return javaBytes(env, rows)
}

package calc

import "unsafe"

func sizeOf[T any](v T) int { return int(unsafe.Sizeof(v)) }

func castSlice[T any](b []byte, n int) []T {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

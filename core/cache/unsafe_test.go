package cache

import "unsafe"

func unsafeBytes(words []uint64, n int) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), n)
}

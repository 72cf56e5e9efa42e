//go:build !linux

package cache

// trimResident does nothing where the system does not tell written pages of a private mapping
// from the file's own; clean pages are reclaimed under pressure anyway.
func trimResident([]byte) {}

//go:build !unix

package testcache

// lockFile does nothing where there is no flock: entries may be computed twice.
func lockFile(string) (unlock func()) { return func() {} }

//go:build unix

package testcache

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on path, waiting for it; the returned func releases
// it. Without a lock (the file cannot be opened) entries may be computed twice.
func lockFile(path string) (unlock func()) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return func() {}
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return func() {}
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}

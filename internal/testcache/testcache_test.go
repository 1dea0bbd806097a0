package testcache

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestKeySeparatesParts(t *testing.T) {
	if Key("ab", "c") == Key("a", "bc") || Key("a") == Key("a", "") || Key("x") != Key("x") {
		t.Fatal("keys of different parts collide, or equal parts differ")
	}
}

func TestDoComputesOnce(t *testing.T) {
	key := Key(t.Name(), t.TempDir()) // unique to this run, also under -count
	n := 0
	for range 3 {
		v, err := Do(key, func() ([]string, error) { n++; return []string{"ptx", "text"}, nil })
		if err != nil || len(v) != 2 || v[1] != "text" {
			t.Fatalf("Do = %v, %v", v, err)
		}
	}
	if n != 1 {
		t.Errorf("computed %d times, want once", n)
	}
	// Errors are returned and not stored.
	bad := Key(t.Name(), t.TempDir(), "error")
	for range 2 {
		if _, err := Do(bad, func() (int, error) { n++; return 0, errors.New("clang failed") }); err == nil {
			t.Fatal("error lost")
		}
	}
	if n != 3 {
		t.Errorf("a failed computation was stored (%d computations, want 3)", n)
	}
}

// TestChildrenShareTheDisk runs this test binary twice as a child: both children have
// this process as parent, as the test binaries of one go command have that command.
// The second must find what the first stored, without computing it.
func TestChildrenShareTheDisk(t *testing.T) {
	if _, ok := processID(os.Getpid()); !ok {
		t.Skip("no /proc: the disk cache is off here")
	}
	if mode := os.Getenv("KS_TESTCACHE_CHILD"); mode != "" {
		key := Key("TestChildrenShareTheDisk", os.Getenv("KS_TESTCACHE_KEY"))
		v, err := Do(key, func() (string, error) {
			if mode == "read" {
				return "", errors.New("computed again: the first child's entry was not found")
			}
			return "stored by the first child", nil
		})
		if err != nil || v != "stored by the first child" {
			t.Fatalf("child %s: %q, %v", mode, v, err)
		}
		return
	}
	key := t.Name() + "-" + strings.ReplaceAll(t.TempDir(), "/", "_") // unique to this run
	for _, mode := range []string{"write", "read"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestChildrenShareTheDisk$", "-test.count=1")
		cmd.Env = append(os.Environ(), "KS_TESTCACHE_CHILD="+mode, "KS_TESTCACHE_KEY="+key)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("child %s: %v\n%s", mode, err, out)
		}
	}
	// The children's directory is named by this process, which is alive: kept.
	id, _ := processID(os.Getpid())
	if _, err := os.Stat(os.TempDir() + "/kernelscope-testcache/" + id); err != nil {
		t.Errorf("the children's cache directory: %v", err)
	}
}

func TestTreeHashFollowsContent(t *testing.T) {
	a, err := TreeHash("internal/testcache")
	if err != nil {
		t.Fatal(err)
	}
	b, err := TreeHash("internal/golden")
	if err != nil || a == b || a == "" {
		t.Fatalf("tree hashes %q %q, %v", a, b, err)
	}
	if _, err := TreeHash("no/such/dir"); err == nil {
		t.Error("a missing directory hashed")
	}
}

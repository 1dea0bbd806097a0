package toolchain

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"sync"
)

// Cache keeps recent successful compilations in memory so that a cell run
// again unchanged (the same source, flags, architecture and compiler binary)
// is not compiled again. Only requests whose result depends on nothing but the
// request, the embedded prelude and the compiler's own headers are cached: a
// source with a quoted, computed or embedded include (#include "x.h",
// #include MACRO, #embed, __has_include), a user include flag, or nvcc with an
// include directory (nvcc searches it for <x.h> too) is always compiled.
// Failed compilations are never cached. A Cache is safe for concurrent use.
type Cache struct {
	mu      sync.Mutex
	max     int
	entries map[[32]byte]*Result
	order   [][32]byte // least recently used first
}

// DefaultCacheEntries is how many compilations NewCache(0) keeps.
const DefaultCacheEntries = 64

// NewCache returns a cache of at most n results (n <= 0: DefaultCacheEntries).
func NewCache(n int) *Cache {
	if n <= 0 {
		n = DefaultCacheEntries
	}
	return &Cache{max: n, entries: map[[32]byte]*Result{}}
}

// uncacheableRE finds what makes a compilation depend on files outside the
// request: an #include/#import/#include_next not of the <...> form, #embed,
// and __has_include (whose answer may change).
var uncacheableRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*(?:(?:include_next|include|import)[ \t]*[^< \t]|embed\b)|__has_include`)

// includeFlagRE matches the user flags that add include directories or files.
var includeFlagRE = regexp.MustCompile(`^-(?:I|isystem|iquote|idirafter|include|imacros|-include-directory)`)

// Compile is Compile answered from the cache when an equal cacheable request
// succeeded before with the same compiler binary (path, size and modification
// time); the result is the caller's to keep (a copy).
func (c *Cache) Compile(ctx context.Context, req Request) (*Result, error) {
	key, ok := c.key(req)
	if !ok {
		return Compile(ctx, req)
	}
	c.mu.Lock()
	if r, hit := c.entries[key]; hit {
		c.touch(key)
		c.mu.Unlock()
		return copyResult(r), nil
	}
	c.mu.Unlock()
	r, err := Compile(ctx, req)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if _, hit := c.entries[key]; !hit {
		c.entries[key] = copyResult(r)
		c.order = append(c.order, key)
		for len(c.order) > c.max {
			delete(c.entries, c.order[0])
			c.order = c.order[1:]
		}
	}
	c.mu.Unlock()
	return r, nil
}

// Len is the number of results the cache holds.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// touch moves key to the most recently used end (c.mu held).
func (c *Cache) touch(key [32]byte) {
	if i := slices.Index(c.order, key); i >= 0 {
		c.order = append(append(c.order[:i:i], c.order[i+1:]...), key)
	}
}

// key is the cache key of a request, or ok false when it must be compiled.
func (c *Cache) key(req Request) (k [32]byte, ok bool) {
	if c == nil || uncacheableRE.MatchString(req.Source) {
		return k, false
	}
	for _, f := range req.Flags {
		if includeFlagRE.MatchString(f) {
			return k, false
		}
	}
	exe, err := chooseCompiler(req.Compiler, exec.LookPath)
	if err != nil {
		return k, false
	}
	if exe == "nvcc" && req.IncludeDir != "" {
		return k, false
	}
	path, err := exec.LookPath(exe)
	if err != nil {
		return k, false
	}
	st, err := os.Stat(path)
	if err != nil {
		return k, false
	}
	h := sha256.New()
	field := func(s string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	var meta [16]byte
	binary.LittleEndian.PutUint64(meta[:], uint64(st.Size()))
	binary.LittleEndian.PutUint64(meta[8:], uint64(st.ModTime().UnixNano()))
	field(path)
	field(string(meta[:]))
	field(req.Source)
	field(req.File)
	field(req.Arch)
	field(req.IncludeDir)
	if req.Sandbox {
		field("sandbox")
	} else {
		field("")
	}
	for _, f := range req.Flags {
		field(f)
	}
	h.Sum(k[:0])
	return k, true
}

// copyResult is a deep copy of r.
func copyResult(r *Result) *Result {
	c := *r
	c.PTX = slices.Clone(r.PTX)
	c.Warnings = slices.Clone(r.Warnings)
	return &c
}

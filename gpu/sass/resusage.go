package sass

import (
	"fmt"
	"strconv"
	"strings"
)

// Resources is one function's row of `cuobjdump -res-usage`.
type Resources struct {
	Registers int            // REG: registers per thread
	Stack     int            // STACK bytes
	Shared    int            // SHARED bytes (static, including what the system reserves)
	Local     int            // LOCAL bytes per thread
	Constant  map[int]int    // CONSTANT[bank] bytes
	Texture   int            // TEXTURE
	Surface   int            // SURFACE
	Sampler   int            // SAMPLER
	Other     map[string]int // any other KEY:VALUE field
}

// ParseResUsage reads `cuobjdump -res-usage` output into a map from function
// name to its resources. Rows that follow a function without a name (the
// tool also prints rows for other sections) are ignored.
func ParseResUsage(text string) (map[string]Resources, error) {
	out := make(map[string]Resources)
	name := ""
	for n, raw := range strings.Split(text, "\n") {
		s := strings.TrimSpace(raw)
		switch {
		case strings.HasPrefix(s, "Function "):
			name = strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(s, "Function ")), ":")
			if name == "" {
				return out, fmt.Errorf("res-usage: line %d: function without a name", n+1)
			}
		case strings.HasPrefix(s, "REG:"):
			if name == "" {
				continue
			}
			r, err := parseResRow(s)
			if err != nil {
				return out, fmt.Errorf("res-usage: line %d: %w", n+1, err)
			}
			out[name] = r
			name = ""
		case s == "Common:" || s == "Resource usage:":
			name = ""
		}
	}
	return out, nil
}

func parseResRow(s string) (Resources, error) {
	r := Resources{Constant: map[int]int{}}
	for _, f := range strings.Fields(s) {
		k, v, ok := strings.Cut(f, ":")
		if !ok {
			return r, fmt.Errorf("field %q is not KEY:VALUE", f)
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return r, fmt.Errorf("field %q: bad number", f)
		}
		switch {
		case k == "REG":
			r.Registers = n
		case k == "STACK":
			r.Stack = n
		case k == "SHARED":
			r.Shared = n
		case k == "LOCAL":
			r.Local = n
		case k == "TEXTURE":
			r.Texture = n
		case k == "SURFACE":
			r.Surface = n
		case k == "SAMPLER":
			r.Sampler = n
		case strings.HasPrefix(k, "CONSTANT[") && strings.HasSuffix(k, "]"):
			bank, err := strconv.Atoi(k[len("CONSTANT[") : len(k)-1])
			if err != nil {
				return r, fmt.Errorf("field %q: bad bank", f)
			}
			r.Constant[bank] = n
		default:
			if r.Other == nil {
				r.Other = map[string]int{}
			}
			r.Other[k] = n
		}
	}
	return r, nil
}

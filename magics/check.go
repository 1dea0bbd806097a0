package magics

import (
	"fmt"
	"strings"
)

// CheckNames are the correctness checks %check can turn on.
func CheckNames() []string { return []string{"race", "init", "sync", "order"} }

// DefaultChecks are the checks on until a %check says otherwise.
func DefaultChecks() []string { return []string{"race", "init", "sync"} }

// ParseCheck reads the argument of %check: a comma-separated list of
// race, init, sync and order, or all, or off; it returns the checks that are on.
func ParseCheck(arg string) ([]string, error) {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return nil, fmt.Errorf("expected race,init,sync,order (any of them), all or off")
	}
	on := map[string]bool{}
	for _, f := range strings.FieldsFunc(arg, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		switch f = strings.ToLower(f); f {
		case "all":
			for _, c := range CheckNames() {
				on[c] = true
			}
		case "off", "none":
			on = map[string]bool{}
		case "race", "init", "sync", "order":
			on[f] = true
		default:
			return nil, fmt.Errorf("unknown check %q; valid choices: race, init, sync, order, all, off", f)
		}
	}
	out := []string{}
	for _, c := range CheckNames() {
		if on[c] {
			out = append(out, c)
		}
	}
	return out, nil
}

// parseExpect validates the argument of %expect (the expression itself is
// parsed after the launch, against the kernel's buffers).
func parseExpect(arg string) (string, error) {
	if strings.TrimSpace(arg) == "" {
		return "", fmt.Errorf("expected an expression over the buffers and scalars, e.g. %%expect out == a + b")
	}
	return strings.TrimSpace(arg), nil
}

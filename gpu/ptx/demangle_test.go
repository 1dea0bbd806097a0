package ptx

import "testing"

func TestFuncName(t *testing.T) {
	for in, want := range map[string]string{
		"_ZN37_INTERNAL_fb059b03_7_vote_cu_df48d43613__ballot_syncEji": "__ballot_sync",
		"_ZN3foo3barEi": "foo::bar",
		"_Z6helperfi":   "helper",
		"vector_add":    "vector_add",
		"_Z":            "_Z",
		"_Z99x":         "_Z99x",
		"_ZN3fooi":      "_ZN3fooi",
		"_ZSt4cout":     "_ZSt4cout",
	} {
		if got := FuncName(in); got != want {
			t.Errorf("FuncName(%q) = %q, want %q", in, got, want)
		}
	}
}

package report

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// step is one move from a value to a part of it: a struct field, element 0 of a
// slice or array, the value at key "k" of a map, or through a pointer.
type step struct {
	kind  reflect.Kind
	field int
	name  string
}

// fill gives v one element in every slice, one key in every map and a target for
// every pointer, recursively, so that every float field exists.
func fill(v reflect.Value, depth int) {
	if depth > 12 {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fill(v.Elem(), depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), depth+1)
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		if k.Kind() == reflect.String {
			k.SetString("k")
		}
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	}
}

// floatPaths lists the paths from v to every float that JSON encodes.
func floatPaths(v reflect.Value, prefix []step, out *[][]step) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		*out = append(*out, append([]step(nil), prefix...))
	case reflect.Pointer:
		if !v.IsNil() {
			floatPaths(v.Elem(), append(prefix, step{kind: reflect.Pointer}), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() || f.Tag.Get("json") == "-" {
				continue
			}
			floatPaths(v.Field(i), append(prefix, step{kind: reflect.Struct, field: i, name: f.Name}), out)
		}
	case reflect.Slice, reflect.Array:
		if v.Len() > 0 {
			floatPaths(v.Index(0), append(prefix, step{kind: reflect.Slice, name: "[0]"}), out)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			floatPaths(it.Value(), append(prefix, step{kind: reflect.Map, name: "[k]"}), out)
		}
	}
}

// setAt sets the float at path in the report *r to x (maps are rebuilt: their values are not addressable).
func setAt(v reflect.Value, path []step, x float64) {
	if len(path) == 0 {
		v.SetFloat(x)
		return
	}
	s := path[0]
	switch s.kind {
	case reflect.Pointer:
		setAt(v.Elem(), path[1:], x)
	case reflect.Struct:
		setAt(v.Field(s.field), path[1:], x)
	case reflect.Slice:
		setAt(v.Index(0), path[1:], x)
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(it.Value())
			setAt(e, path[1:], x)
			v.SetMapIndex(it.Key(), e)
		}
	}
}

// getAt reads the float at path.
func getAt(v reflect.Value, path []step) (float64, bool) {
	if len(path) == 0 {
		return v.Float(), true
	}
	s := path[0]
	switch s.kind {
	case reflect.Pointer:
		if v.IsNil() {
			return 0, false
		}
		return getAt(v.Elem(), path[1:])
	case reflect.Struct:
		return getAt(v.Field(s.field), path[1:])
	case reflect.Slice:
		if v.Len() == 0 {
			return 0, false
		}
		return getAt(v.Index(0), path[1:])
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			return getAt(it.Value(), path[1:])
		}
	}
	return 0, false
}

func pathName(p []step) string {
	var b strings.Builder
	b.WriteString("Report")
	for _, s := range p {
		switch s.kind {
		case reflect.Struct:
			b.WriteString("." + s.name)
		case reflect.Slice, reflect.Map:
			b.WriteString(s.name)
		}
	}
	return b.String()
}

// TestNonFiniteEveryFloatField sets every float the JSON report holds, in turn, to
// NaN, +Inf and -Inf, and checks that the report encodes, that the value is written as
// the DESIGN.md string, and that it decodes back.
func TestNonFiniteEveryFloatField(t *testing.T) {
	var base Report
	fill(reflect.ValueOf(&base).Elem(), 0)
	var paths [][]step
	floatPaths(reflect.ValueOf(&base).Elem(), nil, &paths)
	if len(paths) < 5 { // hit rates, occupancy, per-issue ratios, sums at least
		t.Fatalf("found only %d float fields in Report: %v", len(paths), paths)
	}
	cases := []struct {
		x    float64
		want string
	}{{math.NaN(), `"NaN"`}, {math.Inf(1), `"Infinity"`}, {math.Inf(-1), `"-Infinity"`}}
	for _, p := range paths {
		for _, c := range cases {
			var r Report
			fill(reflect.ValueOf(&r).Elem(), 0)
			setAt(reflect.ValueOf(&r).Elem(), p, c.x)
			b, err := json.Marshal(&r)
			if err != nil {
				t.Errorf("%s = %v: json.Marshal: %v", pathName(p), c.x, err)
				continue
			}
			// The only non-finite value is this one, and no string field holds text, so
			// the document holds the string exactly once ("Infinity" also matches inside
			// "-Infinity": count the quoted form).
			if n := strings.Count(string(b), c.want); n != 1 {
				t.Errorf("%s = %v: %s appears %d times in %s", pathName(p), c.x, c.want, n, b)
			}
			var back Report
			if err := json.Unmarshal(b, &back); err != nil {
				t.Errorf("%s = %v: json.Unmarshal: %v", pathName(p), c.x, err)
				continue
			}
			got, ok := getAt(reflect.ValueOf(&back).Elem(), p)
			switch {
			case !ok:
				t.Errorf("%s = %v: missing after a round trip", pathName(p), c.x)
			case math.IsNaN(c.x) != math.IsNaN(got) || (!math.IsNaN(c.x) && got != c.x):
				t.Errorf("%s = %v: %v after a round trip", pathName(p), c.x, got)
			}
		}
	}
	t.Logf("%d float fields checked", len(paths))
}

// TestFiniteFloatsUnchanged checks finite floats encode exactly as encoding/json encodes them.
func TestFiniteFloatsUnchanged(t *testing.T) {
	a, b0 := 0.1, 0.2
	m := Memory{L1HitRate: a + b0, L2HitRate: 1e-7}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	type plain Memory
	want, _ := json.Marshal(plain(m))
	var got, exp map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(want, &exp)
	if !reflect.DeepEqual(got, exp) {
		t.Errorf("finite encoding differs:\n got %s\nwant %s", b, want)
	}
	if !strings.Contains(string(b), `"l1_hit_rate":0.30000000000000004`) || !strings.Contains(string(b), `"l2_hit_rate":1e-7`) {
		t.Errorf("floats not encoded as encoding/json does: %s", b)
	}
}

// TestOutputFirstSpellsInfinity checks that formatted first elements use the report's spelling.
func TestOutputFirstSpellsInfinity(t *testing.T) {
	o := Output{Name: "out", First: []string{"NaN", "+Inf", "-Inf", "1.5"}, Sum: math.NaN()}
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"first":["NaN","Infinity","-Infinity","1.5"]`) || !strings.Contains(string(b), `"sum":"NaN"`) {
		t.Errorf("got %s", b)
	}
	if o.First[1] != "+Inf" {
		t.Errorf("MarshalJSON changed the caller's slice: %v", o.First)
	}
}

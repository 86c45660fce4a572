package jsonerr

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

type inner struct {
	Round int  `json:"round"`
	Ready bool `json:"ready"`
}

type doc struct {
	Turns  []inner          `json:"turns"`
	Models map[string]inner `json:"models"`
	Name   string           `json:"name"`
}

// A decoder's complaint reads in the file's terms: the key path and the
// kind it takes, or the key meant; never a Go type.
func TestExplain(t *testing.T) {
	t.Parallel()
	keys := Keys(reflect.TypeFor[doc]())
	if want := []string{"models", "name", "ready", "round", "turns"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("Keys = %v, want %v", keys, want)
	}
	for _, tc := range []struct{ in, want string }{
		{`{"turns":[{"round":"1"}]}`, "turns.0.round: give a whole number, not a string"},
		{`{"turns":[{"round":1.5}]}`, "turns.0.round: give a whole number, not 1.5"},
		{`{"models":{"m":{"ready":"yes"}}}`, "models.m.ready: give true or false, not a string"},
		{`{"name":["a"]}`, "name: give a string, not a list"},
		{`{"turns":{}}`, "turns: give a list, not an object"},
		{`{"rnd":1}`, `unknown key "rnd" (did you mean "round"?)`},
		{`{"colour":1}`, `unknown key "colour" (the keys are: models, name, ready, round, turns)`},
	} {
		dec := json.NewDecoder(strings.NewReader(tc.in))
		dec.DisallowUnknownFields()
		var d doc
		err := Explain(dec.Decode(&d), keys, "")
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.in, err, tc.want)
		}
	}
}

// Unknown names the first unknown key with the object it is in (lists by
// index, maps by key), where it is in the file, and the keys meant: a
// near one of that object, else the objects where the key goes, else that
// object's keys. Known keys (whatever their case) and malformed JSON are
// no finding.
func TestUnknown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`{"turns":[{"round":1},{"rnd":2}]}`, `line 1, column 24: unknown key "rnd" in turns.1 (did you mean "round"?)`},
		{`{"round":1}`, `line 1, column 2: unknown key "round" at the top level: it goes in models.<model> or turns.<n>`},
		{"{\n \"models\": {\"m\": {\"name\": \"x\"}}}", `line 2, column 19: unknown key "name" in models.m: it goes in the top level`},
		{`{"name":"a","colour":1}`, `line 1, column 13: unknown key "colour" at the top level (its keys are: models, name, turns)`},
		{`{"Name":"a","TURNS":[{"Round":1}]}`, ``},
		{`{"name":`, ``},
		{`[{"x":1}]`, ``},
	} {
		err := Unknown([]byte(tc.in), reflect.TypeFor[doc]())
		if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && got != tc.want {
			t.Errorf("%s: %v, want %q", tc.in, err, tc.want)
		}
	}
}

// A syntax error says where it is in the file, by line and column (in
// characters), counting from the file's start even when the decoder was
// given only part of it; a file that ends inside its JSON says so.
func TestAtLocatesSyntaxErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file  string
		start int
		want  string
	}{
		{"{\n  \"turns\": [\n    {\"round\": 5,}\n  ]\n}\n", 0, "line 3, column 17: invalid character '}'"},
		{"{\n  \"name\": \"a\"\n  \"turns\": []\n}", 0, "line 3, column 3: invalid character '\"' after object key:value pair"},
		{"\n\n  {\"name\": \"é\", \"turns\": [}", 4, "line 3, column 27: invalid character '}'"},
		{"{\"name\": \"a\",\n", 0, "the file ends before its JSON is complete (a } or ] is missing?)"},
		// A comment, which JSON has none of, is named as one.
		{"{\n  // the agent\n  \"name\": \"a\"\n}", 0, "line 2, column 3: a comment: JSON has none, remove it (invalid character '/'"},
		{"{\"name\": \"a\" /* old: b */}", 0, "line 1, column 14: a comment: JSON has none, remove it (invalid character '/'"},
		{"# turns of the critic\n{}", 0, "line 1, column 1: a comment: JSON has none, remove it (invalid character '#'"},
	} {
		var d doc
		err := json.NewDecoder(strings.NewReader(tc.file[tc.start:])).Decode(&d)
		if err == nil {
			t.Fatalf("%q decoded", tc.file)
		}
		if got := At(err, []byte(tc.file), tc.start); !strings.HasPrefix(got.Error(), tc.want) || !errors.Is(got, err) {
			t.Errorf("%q: %v, want it to start %q", tc.file, got, tc.want)
		}
	}
	other := errors.New("turns: give a list, not an object")
	if got := At(other, []byte(`{"turns":{}}`), 0); got != other {
		t.Errorf("another error: %v", got)
	}
}

package jsonerr

import (
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

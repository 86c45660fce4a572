package jsonscan

import "testing"

func TestQuoted(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		`{"a":1}`:         `_xxx___`,
		`{"a\"b":NaN}`:    `_xxxxxx_____`,
		`"\\" x`:          `xxxx__`,
		`["x\\\"y",  {}]`: `_xxxxxxxx______`,
		`{"k":"é"}`:       `_xxx_xxxx_`,
		`a "q\" r" z`:     `__xxxxxxx__`,
	} {
		var q Quoted
		got := make([]byte, len(text))
		for i := 0; i < len(text); i++ {
			got[i] = '_'
			if q.Step(text[i]) {
				got[i] = 'x'
			}
		}
		if string(got) != want {
			t.Errorf("%s\n got %s\nwant %s", text, got, want)
		}
	}
}

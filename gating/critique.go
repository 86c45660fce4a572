package gating

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/jsonerr"
	"github.com/parleyhq/parley/vocab"
)

// MaxInputBytes bounds one self-critique, in either form. A self-critique
// is a few kilobytes; anything larger is a mistake (or an attack) and is
// refused with ErrTooLarge rather than analysed.
const MaxInputBytes = 1 << 20

// SelfCritique is one agent's structured self-critique of its answer to a
// candidate question (SPEC §7). Only Critique is required.
type SelfCritique struct {
	// Layer is the pipeline layer the question belongs to; empty when the
	// agent did not say.
	Layer         vocab.Layer `json:"layer,omitempty"`
	Question      string      `json:"question,omitempty"`
	InitialAnswer string      `json:"initial_answer,omitempty"`
	Reasoning     string      `json:"reasoning,omitempty"`
	Critique      string      `json:"critique"`
	FinalAnswer   string      `json:"final_answer,omitempty"`
	// InitialConfidence and FinalConfidence are in [0, 1]; nil when not
	// stated.
	InitialConfidence *float64 `json:"initial_confidence,omitempty"`
	FinalConfidence   *float64 `json:"final_confidence,omitempty"`
	// EvidenceRefs are the references the agent cites (paths, path:line,
	// [[wiki pages]], URLs). They are counted, not checked.
	EvidenceRefs []string `json:"evidence_refs,omitempty"`
	// Parsed says how the input was read (nil for a value built in code);
	// it is not part of the JSON form.
	Parsed *Parsed `json:"-"`
}

// Confidence returns the stated confidence the gate uses: the final
// confidence, else the initial one; ok is false when neither is stated.
func (sc *SelfCritique) Confidence() (c float64, ok bool) {
	switch {
	case sc.FinalConfidence != nil:
		return *sc.FinalConfidence, true
	case sc.InitialConfidence != nil:
		return *sc.InitialConfidence, true
	}
	return 0, false
}

// Validate reports why a self-critique cannot be gated: a blank critique
// (ErrNoCritique), a confidence outside [0, 1] or not finite
// (ErrConfidence), an unknown layer or a blank evidence ref (ErrMalformed).
func (sc *SelfCritique) Validate() error {
	if strings.TrimSpace(sc.Critique) == "" {
		return ErrNoCritique
	}
	for _, c := range []struct {
		name string
		v    *float64
	}{{"initial_confidence", sc.InitialConfidence}, {"final_confidence", sc.FinalConfidence}} {
		if c.v != nil && !(*c.v >= 0 && *c.v <= 1) {
			return fmt.Errorf("%w: %s is %v (use a number from 0 to 1, or a percentage)", ErrConfidence, c.name, *c.v)
		}
	}
	if sc.Layer != "" {
		if _, err := vocab.ParseLayer(string(sc.Layer)); err != nil || vocab.Layer(strings.ToLower(string(sc.Layer))) != sc.Layer {
			return fmt.Errorf("%w: layer %q (use spec, plan or verify)", ErrMalformed, sc.Layer)
		}
	}
	for i, r := range sc.EvidenceRefs {
		if strings.TrimSpace(r) == "" {
			return fmt.Errorf("%w: evidence_refs[%d] is blank", ErrMalformed, i)
		}
	}
	return nil
}

// Parse reads one self-critique from r, in either form: a JSON object
// (when the first non-blank character is '{') or Markdown/plain text. It
// reads at most MaxInputBytes+1 bytes. Every failure wraps one of
// ErrTooLarge, ErrBinary, ErrMalformed, ErrNoCritique or ErrConfidence, or
// is the reader's own error.
func Parse(r io.Reader) (SelfCritique, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return SelfCritique{}, err
	}
	return ParseBytes(data)
}

// ParseBytes is Parse on a byte slice. Only empty, binary or oversized
// input is refused. A JSON object is read with its fields; one that does
// not fit them exactly (an unknown key, a confidence of 7, a blank
// critique beside other text) is read leniently, and Parsed notes what was
// left out. Input that starts like JSON but is not a JSON object is read as
// text.
func ParseBytes(data []byte) (SelfCritique, error) {
	data, err := checkText(data)
	if err != nil {
		return SelfCritique{}, err
	}
	if inner, ok := fencedJSON(data); ok {
		// Models often wrap their JSON in a code fence, whose text a
		// reading as Markdown would mask whole.
		sc, err := ParseBytes(inner)
		if err == nil && sc.Parsed != nil && sc.Parsed.Form == "json" {
			sc.Parsed.Notes = append(sc.Parsed.Notes, "a JSON object in a code fence: read as JSON")
			return sc, nil
		}
	}
	if !looksLikeJSON(data) {
		return ParseText(data)
	}
	sc, jerr := ParseJSON(data)
	if jerr == nil || errors.Is(jerr, ErrBinary) {
		return sc, jerr
	}
	switch sc, object, err := lenientJSON(data, jerr); {
	case err != nil:
		return SelfCritique{}, err
	case object:
		return sc, nil
	}
	sc, err = ParseText(data)
	if err != nil {
		return SelfCritique{}, err
	}
	sc.Parsed.Notes = append(sc.Parsed.Notes, "not a JSON object ("+clip.Line(jerr.Error(), 101)+"): read as text")
	return sc, nil
}

// lenientJSON reads a JSON object that ParseJSON refused (strictErr): keys
// it does not know, confidences it cannot use, an unknown layer and blank
// evidence refs are left out, and a blank critique is made of the other
// text fields. object is false when data is not a JSON object (the caller
// reads it as text); an object with no text at all is ErrNoCritique.
func lenientJSON(data []byte, strictErr error) (sc SelfCritique, object bool, err error) {
	var raw map[string]json.RawMessage
	t := bytes.TrimSpace(data)
	dec := json.NewDecoder(bytes.NewReader(t))
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return SelfCritique{}, false, nil
	}
	// What the agent wrote after the object is its own words too: a
	// doubt added below the JSON must count.
	var after string
	if off := dec.InputOffset(); off > 0 && off <= int64(len(t)) {
		after = strings.TrimSpace(string(t[off:]))
	}
	notes := []string{"not a strict JSON self-critique (" + clip.Line(strictErr.Error(), 101) + "): read leniently"}
	notes = append(notes, fitTypes(raw)...)
	var j jsonCritique
	if b, err := json.Marshal(raw); err != nil || json.Unmarshal(b, &j) != nil {
		return SelfCritique{}, false, nil
	}
	if strings.TrimSpace(j.Critique) == "" {
		var parts []string
		for _, f := range []string{j.Reasoning, j.InitialAnswer, j.FinalAnswer} {
			if strings.TrimSpace(f) != "" {
				parts = append(parts, f)
			}
		}
		if len(parts) == 0 {
			return SelfCritique{}, true, fmt.Errorf("%w: the JSON object has no critique, reasoning or answer", ErrNoCritique)
		}
		j.Critique = strings.Join(parts, "\n\n")
		notes = append(notes, "no critique: the reasoning and answers are the critique")
	}
	if after != "" {
		j.Critique += "\n\n" + after
		notes = append(notes, "text after the JSON object: read as critique")
	}
	refs := j.EvidenceRefs[:0]
	for _, r := range j.EvidenceRefs {
		if strings.TrimSpace(r) != "" {
			refs = append(refs, r)
		}
	}
	j.EvidenceRefs = refs
	for name, raw := range map[string]*json.RawMessage{"initial_confidence": &j.InitialConfidence, "final_confidence": &j.FinalConfidence, "confidence": &j.Confidence} {
		if _, err := jsonConfidence(name, *raw); err != nil {
			*raw = nil
			notes = append(notes, name+" left out: "+clip.Line(err.Error(), 81))
		}
	}
	if j.Confidence != nil && j.FinalConfidence != nil {
		j.Confidence = nil
		notes = append(notes, "confidence left out: final_confidence is given")
	}
	if _, err := vocab.ParseLayer(j.Layer); strings.TrimSpace(j.Layer) != "" && err != nil {
		notes = append(notes, fmt.Sprintf("layer %q left out", clip.Line(j.Layer, 21)))
		j.Layer = ""
	}
	sc, err = j.critique()
	if err != nil {
		return SelfCritique{}, true, err
	}
	sort.Strings(notes[1:])
	sc.Parsed.Notes = notes
	return sc, true, nil
}

// fitTypes makes the known text fields of a JSON object decodable, in
// place: one given as a list of strings is its items, one a line (a
// critique written as a list of points); evidence_refs given as one string
// is a list of one; a field of any other type is left out, with a note.
func fitTypes(raw map[string]json.RawMessage) (notes []string) {
	for _, key := range []string{"layer", "question", "initial_answer", "reasoning", "critique", "final_answer", "evidence_refs"} {
		v, ok := raw[key]
		if !ok {
			continue
		}
		var s string
		var list []string
		switch refs := key == "evidence_refs"; {
		case json.Unmarshal(v, &s) == nil:
			switch {
			case refs && strings.TrimSpace(s) == "":
				delete(raw, key) // "" or null: no refs
			case refs:
				raw[key], _ = json.Marshal([]string{s})
			}
		case json.Unmarshal(v, &list) == nil:
			if !refs {
				raw[key], _ = json.Marshal(strings.Join(list, "\n"))
			}
		default:
			delete(raw, key)
			notes = append(notes, key+" left out: not a string or a list of strings")
		}
	}
	return notes
}

// fencedJSON returns the content of data when data is one fenced code
// block (``` or ~~~, with no info string or "json") and nothing else, and
// its content looks like JSON.
func fencedJSON(data []byte) ([]byte, bool) {
	t := strings.TrimSpace(string(data))
	first, rest, ok := strings.Cut(t, "\n")
	if !ok {
		return nil, false
	}
	fence := fenceOpen(first)
	if fence == "" {
		return nil, false
	}
	if info := strings.TrimSpace(first[len(fence):]); info != "" && !strings.EqualFold(info, "json") {
		return nil, false
	}
	body, last, ok := cutLastLine(rest)
	if !ok || strings.TrimSpace(last) != fence || strings.Contains(body, fence) {
		return nil, false
	}
	if !looksLikeJSON([]byte(body)) {
		return nil, false
	}
	return []byte(body), true
}

// cutLastLine splits s before its last line.
func cutLastLine(s string) (before, last string, ok bool) {
	i := strings.LastIndexByte(s, '\n')
	if i < 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// looksLikeJSON reports whether data starts (after white space) with an
// object, or with an array of objects or an empty array, which ParseJSON
// then refuses; a wikilink "[[page]]" starts a text.
func looksLikeJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 {
		return false
	}
	if t[0] == '{' {
		return true
	}
	if t[0] == '[' {
		u := bytes.TrimLeft(t[1:], " \t\r\n")
		return len(u) > 0 && (u[0] == '{' || u[0] == ']')
	}
	return false
}

// utf8BOM is the byte order mark some editors write at the start of a
// UTF-8 file; every reader of text and JSON Lines drops it.
var utf8BOM = []byte("\xef\xbb\xbf")

// checkText enforces the size limit and refuses binary input; it strips a
// UTF-8 byte order mark.
func checkText(data []byte) ([]byte, error) {
	if len(data) > MaxInputBytes {
		return nil, fmt.Errorf("%w: self-critique is larger than %d bytes", ErrTooLarge, MaxInputBytes)
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%w: invalid UTF-8", ErrBinary)
	}
	for i, b := range data {
		if binaryByte(b) {
			return nil, fmt.Errorf("%w: control byte 0x%02x at offset %d", ErrBinary, b, i)
		}
	}
	return data, nil
}

// binaryByte is a control byte no text holds: C0 but tab, line feed,
// carriage return and form feed, and DEL.
func binaryByte(b byte) bool {
	return b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' || b == 0x7f
}

// checkDecoded refuses in a decoded JSON string what checkText refuses in
// raw input: "\u0000" or "\u001b" escapes make a self-critique as binary
// as the bytes themselves.
func checkDecoded(field, s string) error {
	for i := 0; i < len(s); i++ {
		if binaryByte(s[i]) {
			return fmt.Errorf("%w: control character 0x%02x in %s", ErrBinary, s[i], field)
		}
	}
	return nil
}

// jsonCritique is the wire form of a JSON self-critique. Confidences accept
// a number in [0, 1] or a string ("0.8", "80%"); "confidence" is an alias of
// "final_confidence".
type jsonCritique struct {
	Layer             string          `json:"layer"`
	Question          string          `json:"question"`
	InitialAnswer     string          `json:"initial_answer"`
	Reasoning         string          `json:"reasoning"`
	Critique          string          `json:"critique"`
	FinalAnswer       string          `json:"final_answer"`
	InitialConfidence json.RawMessage `json:"initial_confidence"`
	FinalConfidence   json.RawMessage `json:"final_confidence"`
	Confidence        json.RawMessage `json:"confidence"`
	EvidenceRefs      []string        `json:"evidence_refs"`
}

func (j *jsonCritique) critique() (SelfCritique, error) {
	sc := SelfCritique{
		Question: j.Question, InitialAnswer: j.InitialAnswer, Reasoning: j.Reasoning,
		Critique: j.Critique, FinalAnswer: j.FinalAnswer, EvidenceRefs: j.EvidenceRefs,
	}
	if len(sc.EvidenceRefs) == 0 {
		sc.EvidenceRefs = nil // "evidence_refs": [] is no refs, as an absent key is
	}
	for _, f := range []struct{ name, s string }{{"layer", j.Layer}, {"question", j.Question}, {"initial_answer", j.InitialAnswer},
		{"reasoning", j.Reasoning}, {"critique", j.Critique}, {"final_answer", j.FinalAnswer}} {
		if err := checkDecoded(f.name, f.s); err != nil {
			return SelfCritique{}, err
		}
	}
	for i, r := range j.EvidenceRefs {
		if err := checkDecoded(fmt.Sprintf("evidence_refs[%d]", i), r); err != nil {
			return SelfCritique{}, err
		}
	}
	if strings.TrimSpace(j.Layer) != "" {
		l, err := vocab.ParseLayer(j.Layer)
		if err != nil {
			return SelfCritique{}, fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		sc.Layer = l
	}
	var err error
	if sc.InitialConfidence, err = jsonConfidence("initial_confidence", j.InitialConfidence); err != nil {
		return SelfCritique{}, err
	}
	if sc.FinalConfidence, err = jsonConfidence("final_confidence", j.FinalConfidence); err != nil {
		return SelfCritique{}, err
	}
	alias, err := jsonConfidence("confidence", j.Confidence)
	if err != nil {
		return SelfCritique{}, err
	}
	if alias != nil {
		if sc.FinalConfidence != nil {
			return SelfCritique{}, fmt.Errorf("%w: both confidence and final_confidence are set", ErrMalformed)
		}
		sc.FinalConfidence = alias
	}
	if err := sc.Validate(); err != nil {
		return SelfCritique{}, err
	}
	sc.Parsed = jsonParsed(&sc)
	return sc, nil
}

// jsonParsed describes a JSON self-critique: the fields that were given.
func jsonParsed(sc *SelfCritique) *Parsed {
	p := &Parsed{Form: "json"}
	for _, f := range []struct{ name, v string }{{"question", sc.Question}, {"initial_answer", sc.InitialAnswer},
		{"reasoning", sc.Reasoning}, {"critique", sc.Critique}, {"final_answer", sc.FinalAnswer}} {
		if strings.TrimSpace(f.v) != "" {
			p.Sections = append(p.Sections, ParsedSection{Section: f.name, Label: f.name, How: "json field"})
		}
	}
	if sc.InitialConfidence != nil {
		p.Confidences = append(p.Confidences, ParsedConfidence{Slot: "initial", Value: *sc.InitialConfidence, How: "json field"})
	}
	if sc.FinalConfidence != nil {
		p.Confidences = append(p.Confidences, ParsedConfidence{Slot: "final", Value: *sc.FinalConfidence, How: "json field"})
	}
	return p
}

// jsonConfidence decodes one confidence: absent or null is nil; a number
// must lie in [0, 1]; a string is read like a Confidence line.
func jsonConfidence(name string, raw json.RawMessage) (*float64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var v float64
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrMalformed, name, err)
		}
		vals, _ := readConfidences(s)
		if len(vals) != 1 {
			return nil, fmt.Errorf("%w: %s %q is not a number from 0 to 1 or a percentage", ErrMalformed, name, clip.Runes(s, 41))
		}
		return &vals[0], nil
	}
	v, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is %s, not a number", ErrMalformed, name, clip.Runes(string(raw), 41))
	}
	if !(v >= 0 && v <= 1) {
		return nil, fmt.Errorf("%w: %s is %s (use a number from 0 to 1, or a string like \"80%%\")", ErrConfidence, name, clip.Runes(string(raw), 41))
	}
	return &v, nil
}

// ParseJSON reads a JSON self-critique: one object with the keys of SPEC §7
// (only "critique" required); an unknown key or trailing data is an error.
func ParseJSON(data []byte) (SelfCritique, error) {
	data, err := checkText(data)
	if err != nil {
		return SelfCritique{}, err
	}
	var j jsonCritique
	if err := decodeStrict(data, &j); err != nil {
		return SelfCritique{}, err
	}
	return j.critique()
}

// decodeStrict decodes exactly one JSON object with no unknown keys and
// nothing but white space after it.
func decodeStrict(data []byte, v any) error {
	if err := decodeObject(data, v); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return nil
}

// decodeObject decodes data, one JSON object and nothing else, into v,
// refusing unknown keys; its errors say what is wrong with the JSON and
// wrap no sentinel, so that each caller names what it was reading.
func decodeObject(data []byte, v any) error {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] != '{' {
		return errors.New("not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonerr.Explain(err, jsonerr.Keys(reflect.TypeOf(v)), "")
	}
	if off := dec.InputOffset(); off < 0 || off > int64(len(t)) || len(bytes.TrimSpace(t[off:])) != 0 {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// finite reports whether v is a finite number.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// EncodeSelfCritique returns sc as a JSON self-critique that ParseJSON
// reads back to the same value.
func EncodeSelfCritique(sc SelfCritique) ([]byte, error) { return json.Marshal(sc) }

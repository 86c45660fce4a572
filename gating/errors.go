package gating

import "errors"

var (
	// ErrTooLarge means an input larger than its limit (MaxInputBytes for a
	// self-critique, MaxCorpusBytes for a corpus, MaxModelBytes for a model).
	ErrTooLarge = errors.New("input too large")
	// ErrBinary means input that is not UTF-8 text (NUL or other control
	// bytes, invalid UTF-8).
	ErrBinary = errors.New("input is not text")
	// ErrMalformed means a self-critique that cannot be read: invalid JSON,
	// an unknown key, a wrongly typed field, an unknown layer, a confidence
	// line that is not a number.
	ErrMalformed = errors.New("malformed self-critique")
	// ErrNoCritique means a self-critique whose critique is missing or
	// blank; it is the one required field.
	ErrNoCritique = errors.New("self-critique has no critique")
	// ErrConfidence means a stated confidence outside 0–1 (or 0–100%).
	ErrConfidence = errors.New("confidence out of range")
	// ErrCorpus means a labeled corpus that cannot be used: a bad line, a
	// label other than debate or skip, too few examples of a label.
	ErrCorpus = errors.New("invalid corpus")
	// ErrModel means a model file that cannot be used: malformed, a
	// different feature set, a non-finite weight.
	ErrModel = errors.New("invalid model")
)

package inbox

import "github.com/parleyhq/parley/vocab"

// MaxNameLen is the longest agent name accepted (vocab.MaxNameLen).
const MaxNameLen = vocab.MaxNameLen

// ValidateName checks an agent name against the allowlist of SPEC §3.1
// (vocab.ValidateName, the one gate every name passes before it reaches
// the filesystem or the network); the error wraps ErrInvalidName.
func ValidateName(name string) error { return vocab.ValidateName(name) }

package vocab

import "github.com/parleyhq/parley/vocab/wire"

// MaxNameLen is the longest agent name accepted (pi-messenger's limit).
const MaxNameLen = wire.MaxNameLen

// ValidateName checks an agent name against the allowlist: 1 to MaxNameLen
// letters, digits, '_' or '-', not starting with '-'. It is the one gate
// every name passes before it reaches the filesystem or the network; the
// error wraps ErrInvalidName. (vocab/wire defines it, for the sends made
// before the rest of parley is initialised.)
func ValidateName(name string) error { return wire.ValidateName(name) }

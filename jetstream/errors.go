package jetstream

import "errors"

var (
	// ErrUnavailable means the NATS server could not be reached, did not
	// answer, or has no JetStream.
	ErrUnavailable = errors.New("NATS server unavailable")
	// ErrIncompatible means the server holds a stream or bucket of parley's
	// name whose configuration parley cannot use.
	ErrIncompatible = errors.New("incompatible JetStream configuration")
	// ErrLockLost means a receiver lost its hold on its inbox: the hold
	// expired (the server was unreachable for longer than its TTL) and
	// another receiver took the inbox. Errors that wrap it also wrap
	// inbox.ErrBusy.
	ErrLockLost = errors.New("lost the hold on the inbox")
	// ErrAuth means the connection could not authenticate: the credentials
	// file cannot be read or is not a user's .creds file, or the server
	// refused the credentials given (or required some and none were given).
	ErrAuth = errors.New("NATS authentication failed")
)

package jetstream

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// MaxCredentialsBytes bounds a credentials file: a user JWT and its seed
// take a few kilobytes; parsing is superlinear in the size, so a larger
// file is refused before it is parsed.
const MaxCredentialsBytes = 64 << 10

// checkCredentials reads the credentials file at path and checks, before
// any connection, that it holds a user JWT and the NKey seed of that same
// user. The errors wrap ErrAuth and name the file, never its content.
func checkCredentials(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%w: credentials file: %w", ErrAuth, err)
	}
	defer clear(b)
	return parseCredentials(path, b)
}

// parseCredentials checks the content b of the credentials file at path.
func parseCredentials(path string, b []byte) error {
	notCreds := func(err error) error {
		return fmt.Errorf("%w: credentials file %s is not a NATS .creds file (a user JWT and its NKey seed, as 'nsc generate creds' writes): %w", ErrAuth, path, err)
	}
	if len(b) > MaxCredentialsBytes {
		return notCreds(fmt.Errorf("it is %d bytes, more than a credentials file holds (%d)", len(b), MaxCredentialsBytes))
	}
	token, err := nkeys.ParseDecoratedJWT(b)
	if err != nil {
		return notCreds(err)
	}
	claims, err := jwt.DecodeUserClaims(token)
	if err != nil {
		return notCreds(err)
	}
	kp, err := nkeys.ParseDecoratedUserNKey(b)
	if err != nil {
		return notCreds(err)
	}
	defer kp.Wipe()
	pub, err := kp.PublicKey()
	if err != nil {
		return notCreds(err)
	}
	if pub != claims.Subject {
		return fmt.Errorf("%w: credentials file %s: its NKey seed is not the key of its user JWT (the file was edited or put together from two users): generate it again", ErrAuth, path)
	}
	return nil
}

// authError says why the server refused the connection and what to check,
// or returns nil when err is not an authentication failure.
func authError(cfg Config, err error) error {
	if !errors.Is(err, nats.ErrAuthorization) && !errors.Is(err, nats.ErrAuthExpired) &&
		!errors.Is(err, nats.ErrAuthRevoked) && !errors.Is(err, nats.ErrAccountAuthExpired) {
		return nil
	}
	url := Redact(cfg.URL)
	switch {
	case cfg.Credentials != "":
		return fmt.Errorf("%w: %s refused the user of credentials file %s (%v): check that the file is the .creds file of a user of an account this server's operator signed, and that neither is expired or revoked", ErrAuth, url, cfg.Credentials, err)
	case strings.Contains(cfg.URL, "@"):
		return fmt.Errorf("%w: %s refused the user and password (or token) of the URL (%v): check them", ErrAuth, url, err)
	}
	return fmt.Errorf("%w: %s requires credentials and none were given (%v): give the .creds file of a user of an account with JetStream", ErrAuth, url, err)
}

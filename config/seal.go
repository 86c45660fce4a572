package config

import (
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"os"
	"strings"
)

// Seal configures the signing of debate seals: with a signing key, every
// verdict.json parley writes is signed; with a public key, every seal read
// must carry a valid signature by it, so that a reader can tell a seal
// parley wrote from one rewritten by someone with write access to the
// files.
type Seal struct {
	// SigningKey is the path of a file holding an ed25519 private key,
	// base64 (its 32-byte seed or the 64-byte key); a relative path is
	// relative to the root. It must be readable by its owner only.
	SigningKey string `json:"signingKey,omitempty"`
	// PublicKey is the matching ed25519 public key, base64.
	PublicKey string `json:"publicKey,omitempty"`
}

func (s *Seal) validate() error {
	if s.PublicKey != "" {
		if _, err := decodePublicKey(s.PublicKey); err != nil {
			return fmt.Errorf("publicKey: %v", err)
		}
	}
	return nil
}

func decodePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("not a base64 ed25519 public key (%d bytes)", ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}

// SealPublicKey returns the configured public key, nil when none is.
func (c *Config) SealPublicKey() ed25519.PublicKey {
	k, _ := decodePublicKey(c.Seal.PublicKey)
	return k
}

// SealSigningKey reads the configured signing key, nil when neither key
// is configured. The key file must not be readable by group or others.
// It is for those who close debates: since every reader of this root
// checks seals against seal.publicKey, a public key with no signing key,
// or a signing key whose public half is not seal.publicKey, is an error
// (ErrSealKeyMismatch), not a debate that reads as tampered once closed.
func (c *Config) SealSigningKey() (ed25519.PrivateKey, error) {
	p := c.Seal.SigningKey
	if p == "" {
		if c.Seal.PublicKey != "" {
			return nil, fmt.Errorf("%w: seal.publicKey is set but seal.signingKey is not, so a debate closed here would be unsigned and read as tampered; "+
				"set seal.signingKey to the key file whose public half is seal.publicKey, or run debates where it is set", ErrSealKeyMismatch)
		}
		return nil, nil
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("seal.signingKey: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("seal.signingKey %s is readable by others (mode %v); run chmod 600 %s", p, fi.Mode().Perm(), p)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("seal.signingKey: %w", err)
	}
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(data)))
	var key ed25519.PrivateKey
	switch {
	case err == nil && len(b) == ed25519.SeedSize:
		key = ed25519.NewKeyFromSeed(b)
	case err == nil && len(b) == ed25519.PrivateKeySize:
		key = ed25519.PrivateKey(b)
	default:
		return nil, fmt.Errorf("seal.signingKey %s: not a base64 ed25519 private key", p)
	}
	pub := key.Public().(ed25519.PublicKey)
	if want := c.SealPublicKey(); want != nil && !pub.Equal(want) {
		return nil, fmt.Errorf("%w: seal.signingKey %s is not the private half of seal.publicKey, so every debate signed with it would read as tampered; "+
			"set seal.publicKey to %s (this key's public half), or seal.signingKey to the key that matches it", ErrSealKeyMismatch, p, base64.StdEncoding.EncodeToString(pub))
	}
	return key, nil
}

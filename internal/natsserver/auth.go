package natsserver

import (
	"errors"
	"fmt"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
)

// Operator is a decentralized (JWT) chain of trust for an embedded server:
// an operator, the system account it names, and the accounts it signs,
// served by a memory account resolver. A server started with WithOperator
// admits only clients presenting the JWT of a user of one of its accounts
// and proving it with that user's NKey seed (a .creds file).
//
// Create every account before the server starts: the memory resolver is
// consulted when a client of an account first connects.
type Operator struct {
	kp       nkeys.KeyPair
	claims   *jwt.OperatorClaims
	system   string
	resolver *server.MemAccResolver
}

// NewOperator creates an operator with a fresh key and its system account.
func NewOperator(name string) (*Operator, error) {
	kp, err := nkeys.CreateOperator()
	if err != nil {
		return nil, fmt.Errorf("natsserver: operator key: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, fmt.Errorf("natsserver: operator key: %w", err)
	}
	o := &Operator{kp: kp, claims: jwt.NewOperatorClaims(pub), resolver: &server.MemAccResolver{}}
	o.claims.Name = name
	sys, err := o.NewAccount("SYS", false)
	if err != nil {
		return nil, err
	}
	o.system = sys.pub
	o.claims.SystemAccount = sys.pub
	// Encoding checks the claims; the server uses them decoded.
	if _, err := o.claims.Encode(kp); err != nil {
		return nil, fmt.Errorf("natsserver: operator JWT: %w", err)
	}
	return o, nil
}

// Account is an account of an Operator.
type Account struct {
	kp  nkeys.KeyPair
	pub string
}

// NewAccount creates an account signed by o and known to its servers; with
// jetStream it may use JetStream without limits, otherwise not at all.
func (o *Operator) NewAccount(name string, jetStream bool) (*Account, error) {
	kp, err := nkeys.CreateAccount()
	if err != nil {
		return nil, fmt.Errorf("natsserver: account key: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, fmt.Errorf("natsserver: account key: %w", err)
	}
	ac := jwt.NewAccountClaims(pub)
	ac.Name = name
	if jetStream {
		ac.Limits.JetStreamLimits = jwt.JetStreamLimits{
			MemoryStorage: jwt.NoLimit, DiskStorage: jwt.NoLimit,
			Streams: jwt.NoLimit, Consumer: jwt.NoLimit,
		}
	}
	token, err := ac.Encode(o.kp)
	if err != nil {
		return nil, fmt.Errorf("natsserver: account %s JWT: %w", name, err)
	}
	if err := o.resolver.Store(pub, token); err != nil {
		return nil, fmt.Errorf("natsserver: account %s: %w", name, err)
	}
	return &Account{kp: kp, pub: pub}, nil
}

// PublicKey is the account's public NKey (its name on the server).
func (a *Account) PublicKey() string { return a.pub }

// NewUser creates a user of a, returning its JWT (signed by a) and its NKey
// seed: what a .creds file holds.
func (a *Account) NewUser(name string) (token string, seed []byte, err error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return "", nil, fmt.Errorf("natsserver: user key: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return "", nil, fmt.Errorf("natsserver: user key: %w", err)
	}
	uc := jwt.NewUserClaims(pub)
	uc.Name = name
	if token, err = uc.Encode(a.kp); err != nil {
		return "", nil, fmt.Errorf("natsserver: user %s JWT: %w", name, err)
	}
	if seed, err = kp.Seed(); err != nil {
		return "", nil, fmt.Errorf("natsserver: user key: %w", err)
	}
	return token, seed, nil
}

// Creds creates a user of a and returns the content of its .creds file.
func (a *Account) Creds(name string) ([]byte, error) {
	token, seed, err := a.NewUser(name)
	if err != nil {
		return nil, err
	}
	return FormatCreds(token, seed)
}

// FormatCreds formats a user JWT and NKey seed as a .creds file.
func FormatCreds(token string, seed []byte) ([]byte, error) {
	b, err := jwt.FormatUserConfig(token, seed)
	if err != nil {
		return nil, fmt.Errorf("natsserver: creds: %w", err)
	}
	return b, nil
}

// WithOperator makes the server trust o alone: decentralized JWT
// authentication, with o's system account and accounts resolved from
// memory. JetStream is enabled for the accounts created with it.
func WithOperator(o *Operator) Option {
	return func(s *Server) { s.op = o }
}

// apply sets the options of the operator's trust on opts.
func (o *Operator) apply(opts *server.Options) error {
	if o == nil || o.system == "" {
		return errors.New("natsserver: an operator made by NewOperator is needed")
	}
	opts.TrustedOperators = []*jwt.OperatorClaims{o.claims}
	opts.SystemAccount = o.system
	opts.AccountResolver = o.resolver
	return nil
}

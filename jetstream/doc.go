// Package jetstream is parley's messenger over a NATS JetStream server, for
// agents on several machines: an inbox.Transport (Transport) and an agent
// registry (Registry) with the same semantics as the file messenger of
// packages inbox and registry. Both pass the same conformance suites
// (inboxtest, registrytest).
//
// What parley keeps on the server (created on first use):
//
//	stream PARLEY (work queue)   parley.inbox.<Name>          waiting messages, one subject per inbox
//	                             parley.dead.<Name>           messages that did not decode, with a Parley-Reason header
//	                             parley.aside.<Name>.<session> a recycled name's unclaimed mail
//	consumer inbox_<Name>        durable pull consumer of one inbox, explicit ack
//	bucket PARLEY_INBOXES        box.<Name>: the inbox exists (and its owner session)
//	                             lock.<Name>: the receiver's hold, with a per-key TTL
//	bucket PARLEY_REGISTRY       <Name>: the registration, the JSON of registry.Registration
//
// A message's id travels as Nats-Msg-Id ("<Name>/<id>"), so a Send retried
// within the duplicate window is stored once; receivers still deduplicate by
// id. A message is removed from the stream when its receiver acknowledges
// it. Connect needs nats-server 2.11 or later (per-key TTLs).
package jetstream

// Findings 4 and 6 of a2a-interop/README.md, by hand: which declared interface the SDK's
// ClientFactory (default options) builds its client on, for cards whose order or versions
// matter. No request is sent; the URLs are never contacted.
//   node a2a-interop/js-client/pick-interface.mjs
import { ClientFactory } from '@a2a-js/sdk/client';

const i = (name, protocolBinding, protocolVersion) => ({ url: `http://127.0.0.1:9/${name}`, protocolBinding, protocolVersion });
const cards = [
  [i('first', 'JSONRPC', '1.0'), i('second', 'JSONRPC', '1.0')],
  [i('first', 'JSONRPC', '1.0'), i('second', 'HTTP+JSON', '1.0'), i('third', 'JSONRPC', '1.0')],
  [i('v03', 'JSONRPC', '0.3'), i('rest10', 'HTTP+JSON', '1.0')],
  [i('v20', 'JSONRPC', '2.0'), i('rest10', 'HTTP+JSON', '1.0')],
];
const factory = new ClientFactory();
for (const supportedInterfaces of cards) {
  const client = await factory.createFromAgentCard({ name: 'x', capabilities: {}, supportedInterfaces });
  const declared = supportedInterfaces.map((f) => `${f.url.split('/').pop()} ${f.protocolBinding}@${f.protocolVersion}`).join(', ');
  console.log(`${declared}  =>  ${client.transport.endpoint.split('/').pop()} (${client.transport.protocolName}, A2A-Version ${client.protocolVersion})`);
}

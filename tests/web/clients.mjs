// Real clients of `swisspair serve`, from connect-es (installed from the npm registry by
// tests/web_e2e.rs): the Connect protocol in JSON and in binary, gRPC-Web, and gRPC, all on
// the server's one port, with the service described at run time from the build's own
// descriptor set (no generated code). Environment: SWISSPAIR_ADDR (host:port),
// SWISSPAIR_DESCRIPTORS (the descriptor set), SWISSPAIR_TRF, SWISSPAIR_SYSTEM (enum name),
// SWISSPAIR_EXPECTED (`swisspair pair -p` of the file); SWISSPAIR_TLS_ADDR and
// SWISSPAIR_TLS_CA for a second server behind TLS.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-node";
import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";

const baseUrl = `http://${process.env.SWISSPAIR_ADDR}`;
const registry = createFileRegistry(
  fromBinary(FileDescriptorSetSchema, readFileSync(process.env.SWISSPAIR_DESCRIPTORS)),
);
const service = registry.getService("swisspair.v1.PairingService");
const enumValue = (type, name) => registry.getEnum(type).values.find((v) => v.name === name).number;
const system = enumValue("swisspair.v1.PairingSystem", process.env.SWISSPAIR_SYSTEM);
const pab = enumValue("swisspair.v1.ByeKind", "BYE_KIND_PAB");
const trf = readFileSync(process.env.SWISSPAIR_TRF, "utf8");
const expected = readFileSync(process.env.SWISSPAIR_EXPECTED, "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((l) => l.trim().split(/\s+/).join(" "));

const transports = {
  "Connect, JSON": createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: false }),
  "Connect, binary": createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: true }),
  "gRPC-Web": createGrpcWebTransport({ baseUrl, httpVersion: "1.1" }),
  gRPC: createGrpcTransport({ baseUrl }),
};

// The same behind TLS (SWISSPAIR_TLS_ADDR, a server with --tls-cert; SWISSPAIR_TLS_CA its
// CA): HTTP/2, as ALPN gives it.
if (process.env.SWISSPAIR_TLS_ADDR) {
  const tlsUrl = `https://${process.env.SWISSPAIR_TLS_ADDR}`;
  const nodeOptions = { ca: readFileSync(process.env.SWISSPAIR_TLS_CA), servername: "localhost" };
  transports["Connect, JSON, TLS"] = createConnectTransport({
    baseUrl: tlsUrl,
    httpVersion: "2",
    useBinaryFormat: false,
    nodeOptions,
  });
  transports["gRPC-Web, TLS"] = createGrpcWebTransport({ baseUrl: tlsUrl, httpVersion: "2", nodeOptions });
}

for (const [name, transport] of Object.entries(transports)) {
  const client = createClient(service, transport);

  test(`${name}: ListSystems lists the system`, async () => {
    const answer = await client.listSystems({});
    assert.ok(answer.systems.some((s) => s.system === system));
    assert.match(answer.engineVersion, /^swisspair /);
  });

  test(`${name}: Pair answers the CLI's pairing`, async () => {
    const answer = await client.pair({ input: { case: "trf", value: trf }, system });
    const pairs = [
      ...answer.boards.map((b) => `${b.whiteId} ${b.blackId}`),
      ...answer.byes.filter((b) => b.kind === pab).map((b) => `${b.playerId} 0`),
    ];
    assert.deepEqual(pairs, expected);
    assert.ok(answer.explanation.groups.length > 0);
  });

  test(`${name}: Standings and Check answer`, async () => {
    const standings = await client.standings({ input: { case: "trf", value: trf }, system });
    assert.ok(standings.rows.length > 0);
    assert.equal(standings.tieBreaks[0], "PTS");
    const check = await client.check({ input: { case: "trf", value: trf }, system });
    assert.ok(check.rounds.length > 0);
  });

  test(`${name}: an error carries its code and rich details`, async () => {
    await assert.rejects(
      client.pair({ input: { case: "trf", value: "not a tournament" }, system }),
      (e) => {
        assert.ok(e instanceof ConnectError);
        assert.equal(e.code, Code.InvalidArgument);
        const types = e.details.map((d) => d.type);
        assert.ok(types.includes("google.rpc.BadRequest"), `details: ${types}`);
        assert.ok(types.includes("google.rpc.ErrorInfo"), `details: ${types}`);
        const info = e.details.find((d) => d.type === "google.rpc.ErrorInfo");
        assert.ok(Buffer.from(info.value).toString("latin1").includes("MALFORMED_TRF"));
        return true;
      },
    );
  });
}

import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ChatRenderer, TinkerClient, tinkerTraceSchema } from "@hs/tinker";
import { TinkerTestServer } from "@hs/tinker/test-server";
import { UnrecoverableError } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rolloutJobSchema, tinkerPolicyReferenceSchema } from "./rollout-job.js";
import {
  type TinkerSamplerSettings,
  tinkerPolicyReference,
  tinkerSamplerSettings,
  tinkerTokenizerDigest,
} from "./tinker-policy-reference.js";
import { TinkerSamplers } from "./tinker-samplers.js";

const tokenizer = resolve(import.meta.dirname, "../../tinker/src/__fixtures__/tiny-tokenizer");
const baseModel = "hs/tiny-capitals";
const apiKey = "queue-test-key";
const view = {
  messages: [{ role: "user" as const, content: "capital peru" }],
  tools: [],
  actionFormat: "text" as const,
};

describe("Tinker sampler references and a worker's samplers", () => {
  let server: TinkerTestServer;
  let settings: TinkerSamplerSettings;
  let paths: string[] = [];
  beforeAll(async () => {
    const renderer = await ChatRenderer.fromDirectory(tokenizer);
    server = new TinkerTestServer({
      baseModels: { [baseModel]: { vocabSize: renderer.tokenizer.get_vocab(true).size, seed: 5 } },
      clientConfig: { pjwt_auth_enabled: true },
      apiKeys: [apiKey],
    });
    const baseUrl = await server.start();
    settings = await tinkerSamplerSettings({
      baseUrl,
      baseModel,
      tokenizerDirectory: tokenizer,
      maxTokens: 3,
      deadlineMs: 20_000,
    });
    // the learner's side: a trained model with two saved sampler versions
    const learner = new TinkerClient({ baseUrl, apiKey });
    await learner.createSession(["learner"]);
    const model = await learner.createModel(baseModel, { rank: 4 });
    paths = [
      await learner.saveWeightsForSampler(model, "first"),
      await learner.saveWeightsForSampler(model, "second"),
    ];
    await learner.close();
  });
  afterAll(async () => {
    await server.close();
  });

  const reference = (version: string, samplerPath: string) =>
    tinkerPolicyReference(settings, { id: `tinker:${baseModel}`, version, samplerPath });

  it("names the sampler path and settings, never a key, and fits the job schema", () => {
    const base = reference("base", baseModel);
    expect(base).toMatchObject({ kind: "tinker", samplerPath: null, baseModel, maxTokens: 3 });
    const trained = reference("tinker-1", paths[0] as string);
    expect(trained).toMatchObject({ samplerPath: paths[0], version: "tinker-1" });
    expect(JSON.stringify(trained)).not.toContain(apiKey);
    expect(tinkerPolicyReferenceSchema.safeParse({ ...trained, apiKey }).success).toBe(false);
    const wrongPath = tinkerPolicyReferenceSchema.safeParse({ ...trained, samplerPath: "/tmp/weights" });
    expect(wrongPath.error?.issues[0]?.message).toBe("expected a tinker:// sampler path");
    expect(rolloutJobSchema.shape.policy.safeParse(trained).success).toBe(true);
  });

  it("hashes the tokenizer files, so that a worker's different copy is told apart", async () => {
    const copy = mkdtempSync(join(tmpdir(), "hs-queue-tokenizer-"));
    try {
      cpSync(tokenizer, copy, { recursive: true });
      expect(await tinkerTokenizerDigest(copy)).toBe(settings.tokenizer.sha256);
      writeFileSync(join(copy, "chat_template.jinja"), "{{ messages[0].content }}");
      expect(await tinkerTokenizerDigest(copy)).not.toBe(settings.tokenizer.sha256);
      const samplers = new TinkerSamplers({ apiKey });
      const moved = {
        ...reference("base", baseModel),
        tokenizer: { ...settings.tokenizer, directory: copy },
      };
      const refused = await samplers.policyOf(tinkerPolicyReferenceSchema.parse(moved)).catch((e) => e);
      expect(refused).toBeInstanceOf(UnrecoverableError);
      expect(String(refused)).toMatch(/tokenizer files in .* differ from the trainer's/);
      await samplers.close();
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("loads one sampler per path, keeps it, drops it when a newer version comes, samples its weights", async () => {
    const samplers = new TinkerSamplers({ apiKey });
    const sessions = () => server.received.filter((entry) => entry.endpoint === "/create_session").length;
    const sessionsBefore = sessions();
    try {
      const first = tinkerPolicyReferenceSchema.parse(reference("tinker-1", paths[0] as string));
      const second = tinkerPolicyReferenceSchema.parse(reference("tinker-2", paths[1] as string));
      const policy = await samplers.policyOf(first);
      expect(await samplers.policyOf(first)).toBe(policy);
      expect(policy.version).toBe("tinker-1");
      const action = await policy.act(view, { seed: 3, mode: "sample" });
      expect(tinkerTraceSchema.parse(action.trace).sampler).toBe(paths[0]);
      expect(samplers.loads).toBe(1);
      const newer = await samplers.policyOf(second);
      expect(newer.version).toBe("tinker-2");
      expect(samplers.loads).toBe(2);
      expect(await samplers.policyOf(first)).not.toBe(policy);
      expect(samplers.loads).toBe(3);
      // one session for all of them: the client is per server
      expect(sessions()).toBe(sessionsBefore + 1);
    } finally {
      await samplers.close();
    }
  });

  it("fails for good on a sampler path the server does not have, naming it", async () => {
    const samplers = new TinkerSamplers({ apiKey });
    try {
      const missing = `tinker://${baseModel}-nowhere/sampler_weights/missing`;
      const refused = await samplers
        .policyOf(tinkerPolicyReferenceSchema.parse(reference("tinker-9", missing)))
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(UnrecoverableError);
      expect(String(refused)).toContain(`refused sampler ${missing} of tinker:${baseModel} tinker-9`);
      expect(String(refused)).toContain("no sampler weights at");
      expect(samplers.loads).toBe(0);
    } finally {
      await samplers.close();
    }
  });

  it("reads no key from a job: a worker without its own key is refused by a server that checks", async () => {
    const samplers = new TinkerSamplers();
    try {
      const refused = await samplers
        .policyOf(tinkerPolicyReferenceSchema.parse(reference("base", baseModel)))
        .catch((error: unknown) => error);
      expect(String(refused)).toMatch(/no API key is set \(TINKER_API_KEY\)/);
    } finally {
      await samplers.close();
    }
  });
});

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { z } from 'zod';
import { buildBff, loadBffConfig, ZBffEnv } from '@ques/bff';
import { loadIdentityConfig, ZIdentityEnv } from '@ques/identity';
import {
  createHttpApp,
  createMetrics,
  generateJwtKeys,
  InProcessEventBus,
  instrumentHttp,
  registerBusMetrics,
  registerPipelineMetrics,
  ZServiceEnv,
} from '@ques/kit';
import { natsServerBinary } from '@ques/kit/testing';
import { loadPaymentsConfig, registerPaymentsMetrics, ZPaymentsEnv } from '@ques/payments';
import { loadQuestionsConfig, ZQuestionsEnv } from '@ques/questions';
import { loadSupportConfig, ZSupportEnv } from '@ques/support';

/**
 * The deployment past one machine (ADR 0027), checked without a cluster (kubeconform is not installable offline):
 * the Kubernetes manifests parse, have what each kind needs, probe the kit's real endpoints, set only variables the
 * services read; the NATS values and config hold; the Grafana dashboard only charts series that exist.
 */
const infra = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const log = pino({ level: 'silent' });

type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  [key: string]: any;
};
const manifests: Manifest[] = readdirSync(infra('k8s'))
  .filter((f) => f.endsWith('.yaml') && f !== 'nats-values.yaml' && f !== 'kustomization.yaml')
  .flatMap((file) =>
    parseAllDocuments(readFileSync(infra(`k8s/${file}`), 'utf8')).map((doc) => {
      expect(doc.errors, file).toEqual([]);
      return doc.toJS() as Manifest;
    }),
  );
const find = (kind: string, name: string) =>
  manifests.find((m) => m.kind === kind && m.metadata.name === name);
const configMap = find('ConfigMap', 'ques-config')!;
const secret = find('Secret', 'ques-secrets')!;

const apps: Record<string, { load: (env: Record<string, string>) => object; schema: z.ZodObject }> = {
  identity: { load: loadIdentityConfig, schema: ZIdentityEnv },
  questions: { load: loadQuestionsConfig, schema: ZQuestionsEnv },
  payments: { load: loadPaymentsConfig, schema: ZPaymentsEnv },
  support: { load: loadSupportConfig, schema: ZSupportEnv },
  bff: { load: loadBffConfig, schema: ZBffEnv },
};

/** A container's environment as the pod would see it (ConfigMap and Secret references resolved). */
function envOf(container: any): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of container.env as any[]) {
    if ('value' in entry) env[entry.name] = String(entry.value);
    else if (entry.valueFrom?.configMapKeyRef) {
      const { name, key } = entry.valueFrom.configMapKeyRef;
      expect(name).toBe('ques-config');
      expect(configMap.data, `ConfigMap key ${key}`).toHaveProperty(key);
      env[entry.name] = configMap.data[key];
    } else if (entry.valueFrom?.secretKeyRef) {
      const { name, key } = entry.valueFrom.secretKeyRef;
      expect(name).toBe('ques-secrets');
      expect(secret.stringData, `Secret key ${key}`).toHaveProperty(key);
      env[entry.name] = secret.stringData[key];
    } else throw new Error(`unsupported env entry ${JSON.stringify(entry)}`);
  }
  return env;
}

describe('Kubernetes manifests (infra/k8s)', () => {
  it('parse, and every object has its kind’s required fields', () => {
    const required: Record<string, string[]> = {
      Namespace: [],
      ConfigMap: ['data'],
      Secret: ['stringData'],
      Deployment: [
        'spec.selector.matchLabels',
        'spec.template.metadata.labels',
        'spec.template.spec.containers',
      ],
      Service: ['spec.selector', 'spec.ports'],
      PodDisruptionBudget: ['spec.selector.matchLabels'],
    };
    const apiVersions: Record<string, string> = {
      Namespace: 'v1',
      ConfigMap: 'v1',
      Secret: 'v1',
      Service: 'v1',
      Deployment: 'apps/v1',
      PodDisruptionBudget: 'policy/v1',
    };
    expect(manifests.length).toBeGreaterThan(10);
    for (const m of manifests) {
      expect(Object.keys(required), `${m.kind} ${m.metadata?.name}`).toContain(m.kind);
      expect(m.apiVersion).toBe(apiVersions[m.kind]);
      expect(m.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      if (m.kind !== 'Namespace') expect(m.metadata.namespace).toBe('ques');
      for (const path of required[m.kind]!)
        expect(
          path.split('.').reduce((o: any, k) => o?.[k], m),
          `${m.kind} ${m.metadata.name}: ${path}`,
        ).toBeDefined();
    }
    const kustomization = parseAllDocuments(
      readFileSync(infra('k8s/kustomization.yaml'), 'utf8'),
    )[0]!.toJS() as { resources: string[] };
    for (const file of kustomization.resources) expect(readdirSync(infra('k8s'))).toContain(file);
  });

  for (const name of Object.keys(apps)) {
    it(`${name}: ≥ 2 replicas, probes on /ready and /health of its port, requests and limits, a PodDisruptionBudget, a Service`, () => {
      const deployment = find('Deployment', name)!;
      expect(deployment, name).toBeDefined();
      expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
      const labels = deployment.spec.template.metadata.labels;
      for (const [k, v] of Object.entries(deployment.spec.selector.matchLabels)) expect(labels[k]).toBe(v);
      const [container] = deployment.spec.template.spec.containers;
      const env = envOf(container);
      const http = container.ports.find((p: any) => p.name === 'http');
      expect(http.containerPort).toBe(Number(env.PORT));
      const metrics = container.ports.find((p: any) => p.name === 'metrics');
      expect(metrics.containerPort).toBe(Number(env.METRICS_PORT));
      expect(metrics.containerPort).not.toBe(http.containerPort);
      expect(container.readinessProbe.httpGet).toEqual({ path: '/ready', port: 'http' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/health', port: 'http' });
      expect(container.resources.requests.memory).toMatch(/^\d+Mi$/);
      expect(container.resources.requests.cpu).toBeDefined();
      expect(parseInt(container.resources.limits.memory, 10)).toBeGreaterThan(
        parseInt(container.resources.requests.memory, 10),
      );
      expect(container.command).toEqual([
        'node',
        name === 'bff' ? 'bff/dist/main.js' : `services/${name}/dist/main.js`,
      ]);

      const pdb = find('PodDisruptionBudget', name)!;
      expect(pdb.spec.minAvailable ?? 0).toBeGreaterThanOrEqual(1);
      expect(pdb.spec.minAvailable).toBeLessThan(deployment.spec.replicas);
      expect(pdb.spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
      const service = find('Service', name)!;
      expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
      expect(service.spec.ports.map((p: any) => p.targetPort)).toEqual(['http']);
      // Metrics are never behind the Service that the BFF (or the Ingress) reaches.
      expect(service.spec.ports.map((p: any) => p.port)).not.toContain(metrics.containerPort);
    });

    it(`${name}: sets only variables its config reads, and its config loads from them`, () => {
      const [container] = find('Deployment', name)!.spec.template.spec.containers;
      const env = envOf(container);
      const known = Object.keys(apps[name]!.schema.shape);
      for (const variable of Object.keys(env))
        expect(known, `${name} does not read ${variable}`).toContain(variable);
      const config = apps[name]!.load(env) as Record<string, unknown>;
      expect(config.METRICS_PORT).toBe(9464);
      // Prometheus scrapes the pod's address: metrics bind every interface, so a token is required (ADR 0054).
      expect([config.METRICS_HOST, typeof config.METRICS_TOKEN]).toEqual(['0.0.0.0', 'string']);
      // The internal calls carry the token in every run mode (ADR 0060): every service that makes or serves one has it.
      if (['identity', 'questions', 'payments'].includes(name)) expect(typeof config.INTERNAL_API_TOKEN).toBe('string');
      if (name !== 'bff') expect(config.NATS_STREAM_REPLICAS).toBe(3);
    });
  }

  it('probes point at endpoints the kit and the BFF really serve: /ready and /health answer 200', async () => {
    const service = createHttpApp({ name: 'probe', log, ready: async () => {} });
    const keys = generateJwtKeys();
    const bff = await buildBff({
      log,
      upstreams: { identity: 'http://127.0.0.1:9' },
      jwt: { publicKey: keys.publicKey, issuer: 'i', audience: 'a' },
      publicOrigin: 'http://localhost:3000',
    });
    for (const app of [service, bff])
      for (const path of ['/ready', '/health'])
        expect((await app.inject({ method: 'GET', url: path })).statusCode, path).toBe(200);
    await service.close();
    await bff.close();
  });
});

describe('NATS', () => {
  it('the Helm values ask the NATS chart for a 3-node JetStream cluster, and the services for R3 streams', () => {
    const values = parseAllDocuments(readFileSync(infra('k8s/nats-values.yaml'), 'utf8'))[0]!.toJS();
    expect(values.config.cluster).toMatchObject({ enabled: true, replicas: 3 });
    expect(values.config.jetstream).toMatchObject({
      enabled: true,
      fileStore: { enabled: true, pvc: { enabled: true } },
    });
    expect(values.podDisruptionBudget.enabled).toBe(true);
    expect(configMapUrl()).toMatch(/^nats:\/\/nats\.nats\.svc/);
  });

  const binary = natsServerBinary();
  it.runIf(!!binary)(
    'infra/nats/nats.conf passes the nats-server config check (the 2.10+ fields aside on an older local binary)',
    () => {
      const version = execFileSync(binary!, ['--version'], { encoding: 'utf8' }).match(/v(\d+)\.(\d+)/)!;
      const modern = Number(version[1]) > 2 || Number(version[2]) >= 10;
      const conf = readFileSync(infra('nats/nats.conf'), 'utf8');
      const readme = readFileSync(infra('README.md'), 'utf8');
      // The README names the versions the file is for; sync_interval is the one field older servers do not know.
      expect(readme).toMatch(/NATS 2\.10 or later/);
      const checked = modern ? conf : conf.replace(/^\s*sync_interval:.*$/m, '');
      const dir = execFileSync('mktemp', ['-d'], { encoding: 'utf8' }).trim();
      const file = `${dir}/nats.conf`;
      execFileSync('sh', ['-c', `cat > ${file}`], { input: checked.replace('/data', dir) });
      expect(
        execFileSync(binary!, ['-c', file, '-t'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
      ).toBeDefined();
    },
  );
});

function configMapUrl(): string {
  return configMap.data.NATS_URL;
}

describe('infra/README.md', () => {
  it('documents BUS_NAMESPACE and every variable of every service and the BFF in one table', () => {
    const readme = readFileSync(infra('README.md'), 'utf8');
    const table = readme.split('\n').filter((l) => l.startsWith('| `'));
    const documented = new Set(table.map((l) => l.split('|')[1]!.trim().replace(/`/g, '')));
    const all = new Set([
      ...Object.keys(ZServiceEnv.shape),
      ...Object.values(apps).flatMap((a) => Object.keys(a.schema.shape)),
    ]);
    expect(documented).toContain('BUS_NAMESPACE');
    for (const variable of all) expect(documented, variable).toContain(variable);
  });
});

describe('Grafana dashboard (infra/grafana)', () => {
  it('is valid JSON and every panel charts a series the services or the BFF register', async () => {
    const dashboard = JSON.parse(readFileSync(infra('grafana/ques-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    // A registry with everything a service and the BFF register (nothing is scraped: names only).
    const metrics = createMetrics('check');
    const app = Fastify();
    instrumentHttp(app, metrics);
    registerBusMetrics(metrics, new InProcessEventBus({ log }));
    registerPipelineMetrics(metrics, null as never);
    registerPaymentsMetrics(null as never, metrics);
    const bffMetrics = createMetrics('bff', { defaultMetrics: false });
    const keys = generateJwtKeys();
    const bff = await buildBff({
      log,
      metrics: bffMetrics,
      upstreams: { identity: 'http://127.0.0.1:9' },
      jwt: { publicKey: keys.publicKey, issuer: 'i', audience: 'a' },
      publicOrigin: 'http://localhost:3000',
    });
    const exists = (name: string) =>
      [metrics, bffMetrics].some(
        (m) =>
          m.registry.getSingleMetric(name) ??
          m.registry.getSingleMetric(name.replace(/_(bucket|sum|count)$/, '')),
      );
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(12);
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets) {
        const names = target.expr.match(/\bques_[a-z_]+\b/g) ?? [];
        expect(names.length, panel.title).toBeGreaterThan(0);
        for (const name of names) expect(exists(name), `${panel.title}: ${name}`).toBe(true);
      }
    }
    await bff.close();
    await app.close();
  });
});

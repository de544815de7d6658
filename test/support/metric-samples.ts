/**
 * Reading an app's metrics in process (its prom-client registry, `app.metrics`): the value of a
 * sample by its name and some of its labels, as the text format would show it.
 */
import type { Registry } from 'prom-client';

export type Labels = Record<string, string>;

interface Sample {
  name: string;
  labels: Labels;
  value: number;
}

/** Every sample of the registry: a histogram's as `…_bucket`, `…_sum` and `…_count`. */
export async function samples(registry: Registry): Promise<Sample[]> {
  const metrics = await registry.getMetricsAsJSON();
  return metrics.flatMap((metric) =>
    metric.values.map((value) => ({
      name: (value as { metricName?: string }).metricName ?? metric.name,
      labels: Object.fromEntries(Object.entries(value.labels).map(([key, label]) => [key, String(label)])),
      value: value.value,
    })),
  );
}

const matches = (sample: Sample, name: string, labels: Labels): boolean =>
  sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value);

/** The sum of the samples named `name` that carry `labels`; undefined when there is none. */
export async function sampled(registry: Registry, name: string, labels: Labels = {}): Promise<number | undefined> {
  const found = (await samples(registry)).filter((sample) => matches(sample, name, labels));
  return found.length === 0 ? undefined : found.reduce((sum, sample) => sum + sample.value, 0);
}

/** The value of `label` in each sample named `name` that carries `labels`, with the sample's value. */
export async function byLabel(registry: Registry, name: string, label: string, labels: Labels = {}): Promise<Map<string, number>> {
  const found = (await samples(registry)).filter((sample) => matches(sample, name, labels));
  return new Map(found.map((sample) => [sample.labels[label], sample.value]));
}

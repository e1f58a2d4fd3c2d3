import { z } from 'zod';
import { jsonRequest } from '@mos/http/testing';

/** A procedure over the real /trpc transport: queries as GET with `?input=`, mutations as POST. */
export function trpcCall(base: string, procedure: { path: string; type: string }, input: unknown, headers: Record<string, string>) {
  if (procedure.type === 'query') {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return jsonRequest(`${base}/trpc/${procedure.path}${query}`, { headers });
  }
  return jsonRequest(`${base}/trpc/${procedure.path}`, { method: 'POST', headers, body: input ?? {} });
}

const ID_LIKE = /^(id|[a-z]+Id)$/;

/** The object shapes an input parser accepts (through optional wrappers and discriminated unions). */
function shapes(schema: unknown): Record<string, unknown>[] {
  if (schema instanceof z.ZodOptional) return shapes(schema.unwrap());
  if (schema instanceof z.ZodObject) return [schema.shape as Record<string, unknown>];
  if (schema instanceof z.ZodDiscriminatedUnion || schema instanceof z.ZodUnion) return (schema.options as unknown[]).flatMap(shapes);
  return [];
}

/** The id-like fields (`id`, `runId`, `journeyId`, ...) of a procedure's input. */
export function idFields(inputs: readonly unknown[]): string[] {
  const names = new Set<string>();
  for (const input of inputs) for (const shape of shapes(input)) for (const key of Object.keys(shape)) if (ID_LIKE.test(key)) names.add(key);
  return [...names].sort();
}

/** Whether an input is valid for the procedure, so a refusal is about the id and not the shape. */
export function inputValid(inputs: readonly unknown[], input: unknown): boolean {
  return inputs.every((schema) => (schema as z.ZodType).safeParse(input).success);
}

// Admin: the shop's public keys (SPEC 5 rule 6) — list, create a test key,
// rotate (the old value keeps working for the grace period), revoke, delete,
// edit the allow-list — and the partner's personal access tokens (rule 7).
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useFetcher, useLoaderData, useNavigation, Form } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { field, idField, outcome, type Outcome } from "~/admin/outcome.server";
import { requireAdmin } from "~/admin/session.server";
import {
  apiKeyJson,
  createApiKey,
  deleteApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  setAllowList,
  ROTATION_GRACE_MS,
} from "~/domains/keys/keys.server";
import { createPersonalAccessToken, personalAccessTokenJson, revokePersonalAccessToken } from "~/domains/partners/access-tokens.server";
import { listPartnerAccessTokens } from "~/domains/partners/partners.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { partnerId } = await requireAdmin(request);
  const [keys, tokens] = await Promise.all([listApiKeys(partnerId), listPartnerAccessTokens(partnerId)]);
  return json({
    keys: keys.map(apiKeyJson),
    tokens: tokens.map(personalAccessTokenJson),
    graceMinutes: ROTATION_GRACE_MS / 60_000,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { partnerId } = await requireAdmin(request);
  const form = await request.formData();
  return outcome(async () => {
    switch (field(form, "intent")) {
      case "create-test-key":
        return { created: apiKeyJson(await createApiKey(partnerId, { environment: "test" })).key };
      case "rotate": {
        const { key } = await rotateApiKey(partnerId, idField(form));
        return { created: key.key };
      }
      case "revoke":
        await revokeApiKey(partnerId, idField(form));
        return {};
      case "delete":
        await deleteApiKey(partnerId, idField(form));
        return {};
      case "allow-list": {
        const domains = field(form, "domains")
          .split(/[\s,]+/)
          .map((d) => d.trim())
          .filter(Boolean);
        await setAllowList(partnerId, idField(form), domains);
        return {};
      }
      case "create-token": {
        const created = await createPersonalAccessToken(partnerId, { name: field(form, "name") });
        return { token: created.token };
      }
      case "revoke-token":
        await revokePersonalAccessToken(partnerId, idField(form));
        return {};
      default:
        throw new Error(`unknown intent ${field(form, "intent")}`);
    }
  });
}

type Key = ReturnType<typeof apiKeyJson>;

const statusTone = { active: "success", rotated: "attention", revoked: "critical" } as const;

export default function Keys() {
  const { keys, tokens, graceMinutes } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as Outcome<{ created?: string; token?: string }> | undefined;
  const busy = useNavigation().state !== "idle";
  return (
    <Page title="Keys and tokens">
      <Layout>
        {result && !result.ok && (
          <Layout.Section>
            <Banner tone="critical" title="That did not work">
              <p>{result.error}</p>
            </Banner>
          </Layout.Section>
        )}
        {result?.ok && result.created && (
          <Layout.Section>
            <Banner tone="success" title="New key">
              <p>
                <code>{result.created}</code>
              </p>
            </Banner>
          </Layout.Section>
        )}
        {result?.ok && result.token && (
          <Layout.Section>
            <Banner tone="warning" title="Copy this token now: it is shown only once">
              <p>
                <code>{result.token}</code>
              </p>
            </Banner>
          </Layout.Section>
        )}
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <InlineStack align="space-between" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  Public keys
                </Text>
                <Form method="post">
                  <input type="hidden" name="intent" value="create-test-key" />
                  <Button submit disabled={busy}>
                    Create test key
                  </Button>
                </Form>
              </InlineStack>
              <Text as="p" tone="subdued">
                The storefront button uses your live key. Rotating a key gives a new value; the old one keeps working for {graceMinutes}{" "}
                minutes so pages can switch over. Revoking stops a key at once.
              </Text>
              {keys.map((key) => (
                <KeyRow key={key.id} apiKey={key} />
              ))}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <Text as="h2" variant="headingMd">
                Personal access tokens
              </Text>
              <Text as="p" tone="subdued">
                For scripts and tools that call the partner API on your behalf. A token is valid for a year.
              </Text>
              <Form method="post">
                <input type="hidden" name="intent" value="create-token" />
                <Box maxWidth="480px">
                  <TextField
                    label="Token name"
                    name="name"
                    autoComplete="off"
                    maxLength={100}
                    connectedRight={
                      <Button submit disabled={busy}>
                        Create token
                      </Button>
                    }
                  />
                </Box>
              </Form>
              {tokens.length === 0 && <Text as="p">No tokens yet.</Text>}
              {tokens.map((t) => (
                <InlineStack key={t.id} align="space-between" blockAlign="center">
                  <BlockStack>
                    <Text as="span" fontWeight="semibold">
                      {t.name || `Token ${t.id}`}
                    </Text>
                    <Text as="span" tone="subdued">
                      Created {t.created_at.slice(0, 10)} · expires {t.expires_at.slice(0, 10)}
                    </Text>
                  </BlockStack>
                  {t.revoked_at ? (
                    <Badge tone="critical">Revoked</Badge>
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="revoke-token" />
                      <input type="hidden" name="id" value={t.id} />
                      <Button submit tone="critical" variant="plain" disabled={busy}>
                        Revoke
                      </Button>
                    </Form>
                  )}
                </InlineStack>
              ))}
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

function KeyRow({ apiKey }: { apiKey: Key }) {
  const fetcher = useFetcher<typeof action>();
  const [domains, setDomains] = useState(apiKey.allowed_domains.join(", "));
  const busy = fetcher.state !== "idle";
  const post = (intent: string, extra: Record<string, string> = {}) =>
    fetcher.submit({ intent, id: String(apiKey.id), ...extra }, { method: "post" });
  const error = fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  return (
    <Box borderColor="border" borderWidth="025" borderRadius="200" padding="300">
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center">
          <Text as="span" fontWeight="semibold">
            <code>{apiKey.key}</code>
          </Text>
          <Badge>{apiKey.environment}</Badge>
          <Badge tone={statusTone[apiKey.status as keyof typeof statusTone]}>{apiKey.status}</Badge>
        </InlineStack>
        {apiKey.status === "rotated" && apiKey.grace_expires_at && (
          <Text as="p" tone="subdued">
            Replaced; keeps working until {new Date(apiKey.grace_expires_at).toLocaleTimeString()}.
          </Text>
        )}
        {error && (
          <Banner tone="critical">
            <p>{error}</p>
          </Banner>
        )}
        {apiKey.status === "active" && (
          <TextField
            label="Allowed domains"
            helpText="Hosts separated by commas; *.example.com allows subdomains."
            value={domains}
            onChange={setDomains}
            autoComplete="off"
            connectedRight={
              <Button onClick={() => post("allow-list", { domains })} disabled={busy}>
                Save domains
              </Button>
            }
          />
        )}
        <InlineStack gap="200">
          {apiKey.status === "active" && (
            <>
              <Button onClick={() => post("rotate")} disabled={busy}>
                Rotate
              </Button>
              <Button tone="critical" onClick={() => post("revoke")} disabled={busy}>
                Revoke
              </Button>
            </>
          )}
          <Button variant="plain" tone="critical" onClick={() => post("delete")} disabled={busy}>
            Delete
          </Button>
        </InlineStack>
      </BlockStack>
    </Box>
  );
}

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
import { useAdminTexts } from "~/admin/use-texts";

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
  return outcome(request, async () => {
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
  const { t: texts, locale } = useAdminTexts();
  const t = texts.keys;
  const date = (iso: string) => new Date(iso).toLocaleDateString(locale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  return (
    <Page title={t.title}>
      <Layout>
        {result && !result.ok && (
          <Layout.Section>
            <Banner tone="critical" title={texts.common.failedTitle}>
              <p>{result.error}</p>
            </Banner>
          </Layout.Section>
        )}
        {result?.ok && result.created && (
          <Layout.Section>
            <Banner tone="success" title={t.newKey}>
              <p>
                <code>{result.created}</code>
              </p>
            </Banner>
          </Layout.Section>
        )}
        {result?.ok && result.token && (
          <Layout.Section>
            <Banner tone="warning" title={t.tokenOnce}>
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
                  {t.publicKeys}
                </Text>
                <Form method="post">
                  <input type="hidden" name="intent" value="create-test-key" />
                  <Button submit disabled={busy}>
                    {t.createTestKey}
                  </Button>
                </Form>
              </InlineStack>
              <Text as="p" tone="subdued">
                {t.keysIntro(graceMinutes)}
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
                {t.tokensTitle}
              </Text>
              <Text as="p" tone="subdued">
                {t.tokensIntro}
              </Text>
              <Form method="post">
                <input type="hidden" name="intent" value="create-token" />
                <Box maxWidth="480px">
                  <TextField
                    label={t.tokenName}
                    name="name"
                    autoComplete="off"
                    maxLength={100}
                    connectedRight={
                      <Button submit disabled={busy}>
                        {t.createToken}
                      </Button>
                    }
                  />
                </Box>
              </Form>
              {tokens.length === 0 && <Text as="p">{t.noTokens}</Text>}
              {tokens.map((token) => (
                <InlineStack key={token.id} align="space-between" blockAlign="center">
                  <BlockStack>
                    <Text as="span" fontWeight="semibold">
                      {token.name || t.tokenFallback(token.id)}
                    </Text>
                    <Text as="span" tone="subdued">
                      {t.tokenDates(date(token.created_at), date(token.expires_at))}
                    </Text>
                  </BlockStack>
                  {token.revoked_at ? (
                    <Badge tone="critical">{t.revoked}</Badge>
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="revoke-token" />
                      <input type="hidden" name="id" value={token.id} />
                      <Button submit tone="critical" variant="plain" disabled={busy}>
                        {t.revoke}
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
  const { t: texts, locale } = useAdminTexts();
  const t = texts.keys;
  return (
    <Box borderColor="border" borderWidth="025" borderRadius="200" padding="300">
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center">
          <Text as="span" fontWeight="semibold">
            <code>{apiKey.key}</code>
          </Text>
          <Badge>{t.environment[apiKey.environment] ?? apiKey.environment}</Badge>
          <Badge tone={statusTone[apiKey.status as keyof typeof statusTone]}>{t.status[apiKey.status] ?? apiKey.status}</Badge>
        </InlineStack>
        {apiKey.status === "rotated" && apiKey.grace_expires_at && (
          <Text as="p" tone="subdued">
            {t.replacedUntil(new Date(apiKey.grace_expires_at).toLocaleTimeString(locale, { hour: "numeric", minute: "2-digit", timeZoneName: "short" }))}
          </Text>
        )}
        {error && (
          <Banner tone="critical">
            <p>{error}</p>
          </Banner>
        )}
        {apiKey.status === "active" && (
          <TextField
            label={t.allowedDomains}
            helpText={t.allowedHelp}
            value={domains}
            onChange={setDomains}
            autoComplete="off"
            connectedRight={
              <Button onClick={() => post("allow-list", { domains })} disabled={busy}>
                {t.saveDomains}
              </Button>
            }
          />
        )}
        <InlineStack gap="200">
          {apiKey.status === "active" && (
            <>
              <Button onClick={() => post("rotate")} disabled={busy}>
                {t.rotate}
              </Button>
              <Button tone="critical" onClick={() => post("revoke")} disabled={busy}>
                {t.revoke}
              </Button>
            </>
          )}
          <Button variant="plain" tone="critical" onClick={() => post("delete")} disabled={busy}>
            {t.delete}
          </Button>
        </InlineStack>
      </BlockStack>
    </Box>
  );
}

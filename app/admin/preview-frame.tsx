// What the preview shows above every admin page in place of the Shopify
// admin's frame: the banner saying it is a preview, and the app's pages as
// links (the Shopify sidebar that lists them is not there), in the admin's
// language like the pages.
import { useLocation } from "@remix-run/react";
import { Banner, BlockStack, Box, InlineStack, Link, Text } from "@shopify/polaris";
import { ADMIN_PAGES } from "./nav-menu";
import { useAdminTexts } from "./use-texts";

export function PreviewFrame() {
  const { pathname } = useLocation();
  const { t, href } = useAdminTexts();
  const pages = [{ to: "/app", label: t.nav.home }, ...ADMIN_PAGES.map((p) => ({ to: p.to, label: t.nav[p.key] }))];
  return (
    // Polaris's page width, so the frame lines up with the page below.
    <div style={{ maxWidth: "62.375rem", margin: "0 auto" }}>
      <Box paddingBlockStart={{ xs: "0", sm: "400" }} paddingInline={{ xs: "0", sm: "600" }}>
        <BlockStack gap="300">
          <Banner tone="warning" title={t.preview.bannerTitle}>
            <p>{t.preview.bannerText}</p>
          </Banner>
          <Box paddingInline={{ xs: "400", sm: "0" }}>
            <nav aria-label={t.nav.pagesLabel}>
              <InlineStack gap="400" wrap>
                {pages.map((page) => {
                  const current = pathname === page.to;
                  return (
                    <Text as="span" key={page.to} fontWeight={current ? "bold" : "regular"}>
                      <Link url={href(page.to)} monochrome={current} removeUnderline={!current}>
                        <span aria-current={current ? "page" : undefined}>{page.label}</span>
                      </Link>
                    </Text>
                  );
                })}
              </InlineStack>
            </nav>
          </Box>
        </BlockStack>
      </Box>
    </div>
  );
}

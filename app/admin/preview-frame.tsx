// What the preview shows above every admin page in place of the Shopify
// admin's frame: the banner saying it is a preview, and the app's pages as
// links (the Shopify sidebar that lists them is not there).
import { useLocation } from "@remix-run/react";
import { Banner, BlockStack, Box, InlineStack, Link, Text } from "@shopify/polaris";
import { ADMIN_PAGES } from "./nav-menu";
import type { PreviewTexts } from "./preview-texts";

export function PreviewFrame({ texts, lang }: { texts: PreviewTexts; lang: string }) {
  const { pathname } = useLocation();
  const pages = [{ to: "/app", label: texts.home }, ...ADMIN_PAGES];
  return (
    <div lang={lang} style={{ maxWidth: "62.375rem", margin: "0 auto" }}>
      <Box paddingBlockStart="400" paddingInline={{ xs: "400", sm: "600" }}>
        <BlockStack gap="300">
          <Banner tone="warning" title={texts.bannerTitle}>
            <p>{texts.bannerText}</p>
          </Banner>
          <nav aria-label={texts.navLabel}>
            <InlineStack gap="400" wrap>
              {pages.map((page) => {
                const current = pathname === page.to;
                return (
                  <Text as="span" key={page.to} fontWeight={current ? "bold" : "regular"}>
                    <Link url={page.to} monochrome={current} removeUnderline={!current}>
                      <span aria-current={current ? "page" : undefined}>{page.label}</span>
                    </Link>
                  </Text>
                );
              })}
            </InlineStack>
          </nav>
        </BlockStack>
      </Box>
    </div>
  );
}

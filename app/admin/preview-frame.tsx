// What the preview shows above every admin page in place of the Shopify
// admin's frame: the banner saying it is a preview (in the browser's
// language), and the app's pages as links (the Shopify sidebar that lists
// them is not there; like the pages, they are in English).
import { useLocation } from "@remix-run/react";
import { Banner, BlockStack, Box, InlineStack, Link, Text } from "@shopify/polaris";
import { ADMIN_PAGES, HOME_LABEL } from "./nav-menu";
import type { PreviewTexts } from "./preview-texts";

const PAGES = [{ to: "/app", label: HOME_LABEL }, ...ADMIN_PAGES];

export function PreviewFrame({ texts, lang }: { texts: PreviewTexts; lang: string }) {
  const { pathname } = useLocation();
  return (
    // Polaris's page width, so the frame lines up with the page below.
    <div style={{ maxWidth: "62.375rem", margin: "0 auto" }}>
      <Box paddingBlockStart={{ xs: "0", sm: "400" }} paddingInline={{ xs: "0", sm: "600" }}>
        <BlockStack gap="300">
          <div lang={lang}>
            <Banner tone="warning" title={texts.bannerTitle}>
              <p>{texts.bannerText}</p>
            </Banner>
          </div>
          <Box paddingInline={{ xs: "400", sm: "0" }}>
            <nav aria-label="Admin pages">
              <InlineStack gap="400" wrap>
                {PAGES.map((page) => {
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
          </Box>
        </BlockStack>
      </Box>
    </div>
  );
}

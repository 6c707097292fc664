// Pieces several screens of the save dialog share: the focusable heading, the
// product box, the error alert, the account footer, and the two forms.
import { useState, type ReactNode } from "react";
import { formatPrice } from "../client";
import type { Lang, Texts } from "~/i18n/dialog";
import type { Product } from "./context";
import type { SaveDialog } from "./use-save-dialog";

/** The screen's heading; it takes the focus when the screen changes. */
export function Heading({ dialog, children }: { dialog: SaveDialog; children: ReactNode }) {
  return (
    <h1 ref={dialog.heading} tabIndex={-1}>
      {children}
    </h1>
  );
}

/** The product being saved, once the dialog knows it. */
export function ProductBox({ dialog }: { dialog: SaveDialog }) {
  return (
    dialog.shown && (
      <>
        <ProductSummary product={dialog.shown} lang={dialog.lang} t={dialog.t} />
        {/* The shop by its verified host: where a save, and the recognition that follows it, happen. */}
        {dialog.shopHost && <p className="muted shop-host">{dialog.t.onShop(dialog.shopHost)}</p>}
      </>
    )
  );
}

/** After a save: which shop now recognises the shopper, with "Not on this shop" the first time (docs/identity.md). */
export function ShopNotice({ dialog }: { dialog: SaveDialog }) {
  const { t, shopNotice, shopHost, busy } = dialog;
  if (!shopNotice) return null;
  return (
    <div className="notice" role="status">
      {shopNotice === "new" && (
        <>
          <p>{t.shopRecognises(shopHost)}</p>
          <button type="button" className="btn-link" disabled={busy} onClick={() => void dialog.notOnThisShop()}>
            {t.notOnThisShop}
          </button>
        </>
      )}
      {shopNotice === "withdrawn" && <p>{t.shopForgets(shopHost)}</p>}
      {shopNotice === "declined" && (
        <button type="button" className="btn-link" disabled={busy} onClick={() => void dialog.stayOnShop()}>
          {t.stayOnShop(shopHost)}
        </button>
      )}
    </div>
  );
}

function ProductSummary({ product, lang, t }: { product: Product; lang: Lang; t: Texts }) {
  const price = formatPrice(product.price, product.currency, lang);
  const image = product.imageUrl && /^https?:\/\//.test(product.imageUrl) ? product.imageUrl : null;
  return (
    <div className="product card">
      {image ? <img src={image} alt="" width={72} height={72} /> : <div className="thumb placeholder" aria-hidden="true" />}
      <div>
        <div className="name">{product.title || t.thisProduct}</div>
        {price && <div className="muted">{price}</div>}
      </div>
    </div>
  );
}

/** The last failure, with "Try again" when the network was the cause. */
export function ErrorAlert({ dialog: { error, t } }: { dialog: SaveDialog }) {
  return (
    error && (
      <div className="alert" role="alert">
        <p style={{ margin: 0 }}>{error.text}</p>
        {error.retry && (
          <button type="button" className="btn-link" onClick={error.retry}>
            {t.retry}
          </button>
        )}
      </div>
    )
  );
}

/**
 * After a save, a shopper with an account whose alerts are off is offered them (the same double opt-in
 * as "My lists"); once asked, it says to confirm; with alerts on, or for a guest, nothing.
 */
export function AlertOffer({ dialog }: { dialog: SaveDialog }) {
  const { alertOffer, t } = dialog;
  if (alertOffer === "pending") {
    return (
      <p className="alert-offer muted" role="status">
        {t.alertOfferPending}
      </p>
    );
  }
  if (alertOffer !== "off") return null;
  return (
    <div className="alert-offer">
      {dialog.alertError && (
        <p role="alert" className="alert" style={{ margin: 0 }}>
          {dialog.alertError}
        </p>
      )}
      <button type="button" className="btn-link" disabled={dialog.alertBusy} onClick={dialog.acceptAlerts}>
        {t.alertOffer}
      </button>
    </div>
  );
}

/** Who is signed in: a guest is offered an account, anyone else a way out. */
export function AccountFooter({ dialog }: { dialog: SaveDialog }) {
  const { session, t } = dialog;
  return (
    session && (
      <div className="footer">
        {session.user.is_anonymous ? (
          <>
            <span className="muted">{t.guestNote}</span>
            <button type="button" className="btn-link" onClick={dialog.keepLists}>
              {t.keepLists}
            </button>
          </>
        ) : (
          <>
            <span className="muted">{t.signedInAs(session.user.email ?? "")}</span>
            <button type="button" className="btn-link" onClick={() => void dialog.leave()}>
              {t.signOut}
            </button>
          </>
        )}
      </div>
    )
  );
}

export function AuthForm(props: {
  mode: "signin" | "signup";
  t: Texts;
  busy: boolean;
  onSubmit: (email: string, password: string) => void;
  onSwitch: () => void;
  /** Leaves the form; without it there is nowhere to go back to. */
  onBack?: () => void;
  /** "Forgot password?" (sign-in only): the recovery page of the site, opened beside the dialog. */
  forgotUrl?: string;
}) {
  const { mode, t, busy } = props;
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        props.onSubmit(String(data.get("email") ?? ""), String(data.get("password") ?? ""));
      }}
    >
      <div>
        <label htmlFor="email">{t.email}</label>
        <input id="email" name="email" type="email" autoComplete="email" required />
      </div>
      <div>
        <label htmlFor="password">{t.password}</label>
        <input
          id="password"
          name="password"
          type="password"
          required
          minLength={mode === "signup" ? 8 : undefined}
          autoComplete={mode === "signin" ? "current-password" : "new-password"}
          aria-describedby={mode === "signup" ? "password-hint" : undefined}
        />
        {mode === "signup" && (
          <p id="password-hint" className="muted" style={{ margin: "0.25rem 0 0" }}>
            {t.passwordHint}
          </p>
        )}
      </div>
      <button type="submit" className="btn-primary" disabled={busy}>
        {mode === "signin" ? t.signIn : t.signUp}
      </button>
      {mode === "signin" && props.forgotUrl ? (
        <a className="btn-link" href={props.forgotUrl} target="_blank" rel="noopener">
          {t.forgotPassword}
        </a>
      ) : null}
      <button type="button" className="btn-link" onClick={props.onSwitch}>
        {mode === "signin" ? t.signUp : t.signIn}
      </button>
      {props.onBack && (
        <button type="button" className="btn-link" onClick={props.onBack}>
          {t.back}
        </button>
      )}
    </form>
  );
}

export function NewListForm({ t, busy, onCreate }: { t: Texts; busy: boolean; onCreate: (name: string) => void }) {
  const [name, setName] = useState("");
  return (
    <form
      className="row"
      style={{ marginBottom: "1rem" }}
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) onCreate(name.trim());
        setName("");
      }}
    >
      <div>
        <label htmlFor="new-list">{t.newListName}</label>
        <input id="new-list" type="text" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <button type="submit" className="btn" disabled={busy || !name.trim()}>
        {t.create}
      </button>
    </form>
  );
}

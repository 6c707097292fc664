// The save dialog's screens, one component each; use-save-dialog.ts decides
// which one is shown and does the work behind their buttons.
import { AccountFooter, AlertOffer, AuthForm, ErrorAlert, Heading, NewListForm, ProductBox, ShopNotice } from "./parts";
import type { Placement } from "./context";
import type { SaveDialog } from "./use-save-dialog";

interface Props {
  dialog: SaveDialog;
}

export function LoadingScreen({ dialog }: Props) {
  return (
    <>
      {/* The same frame as the screens that follow, so nothing jumps when one arrives. */}
      <h1>{dialog.t.titleSave}</h1>
      <ProductBox dialog={dialog} />
      <p className="muted">{dialog.t.loading}</p>
    </>
  );
}

/** Opened without a token or product (a bookmark, a reload in another window). */
export function NoContextScreen({ dialog }: Props) {
  return (
    <>
      <Heading dialog={dialog}>{dialog.t.titleSave}</Heading>
      <p>{dialog.t.noContext}</p>
    </>
  );
}

/** Nobody is signed in on this site: guest, sign in or create an account. */
export function WelcomeScreen({ dialog }: Props) {
  const { t, busy } = dialog;
  return (
    <>
      <Heading dialog={dialog}>{t.titleSave}</Heading>
      <ProductBox dialog={dialog} />
      <ErrorAlert dialog={dialog} />
      <p>{t.welcome}</p>
      <div className="stack">
        <button type="button" className="btn-primary" disabled={busy} onClick={dialog.continueAsGuest}>
          {t.guest}
        </button>
        <button type="button" className="btn" disabled={busy} onClick={() => dialog.openAuth("signin")}>
          {t.signIn}
        </button>
        <button type="button" className="btn" disabled={busy} onClick={() => dialog.openAuth("signup")}>
          {t.signUp}
        </button>
      </div>
    </>
  );
}

export function AuthScreen({ dialog, mode }: Props & { mode: "signin" | "signup" }) {
  const { t } = dialog;
  return (
    <>
      <Heading dialog={dialog}>{mode === "signin" ? t.signIn : t.signUp}</Heading>
      <ErrorAlert dialog={dialog} />
      <AuthForm
        mode={mode}
        t={t}
        busy={dialog.busy}
        onSubmit={(email, password) => void dialog.authenticate(mode, email, password)}
        onSwitch={() => dialog.openAuth(mode === "signin" ? "signup" : "signin")}
        onBack={dialog.backToWelcome}
        forgotUrl={`/${dialog.lang}/account/forgot`}
      />
    </>
  );
}

/** Saved just now, or `already` saved before this dialog opened. */
export function SavedScreen({ dialog, placement, already }: Props & { placement: Placement; already: boolean }) {
  const { t, busy } = dialog;
  return (
    <>
      <Heading dialog={dialog}>{already ? t.alreadySaved(placement.list.name) : t.savedTo(placement.list.name)}</Heading>
      <ProductBox dialog={dialog} />
      <ErrorAlert dialog={dialog} />
      <div className="stack">
        <a className="btn-primary" href={dialog.myLists} target="_blank" rel="noopener">
          {t.viewMyLists}
        </a>
        <button type="button" className="btn" disabled={busy} onClick={() => dialog.changeList(placement)}>
          {t.changeList}
        </button>
        {already && (
          <button type="button" className="btn" disabled={busy} onClick={() => void dialog.remove(placement)}>
            {busy ? t.removing : t.remove}
          </button>
        )}
        <button type="button" className="btn-link" onClick={dialog.closeDialog}>
          {t.close}
        </button>
      </div>
      <ShopNotice dialog={dialog} />
      <AlertOffer dialog={dialog} />
      <AccountFooter dialog={dialog} />
      {/* Last on the screen: when it goes, nothing above it moves under the shopper's pointer. */}
      <p className="muted" role="status">
        {dialog.closing ? t.closingSoon : ""}
      </p>
    </>
  );
}

/** "Change list": pick another list (or make one) and move the item there. */
export function PickScreen({ dialog, placement }: Props & { placement: Placement }) {
  const { t, busy, chosen } = dialog;
  return (
    <>
      <Heading dialog={dialog}>{t.chooseList}</Heading>
      <ProductBox dialog={dialog} />
      <ErrorAlert dialog={dialog} />
      <fieldset>
        <legend className="visually-hidden">{t.chooseList}</legend>
        {dialog.lists.map((l) => (
          <div className="choice" key={l.db_id}>
            <input type="radio" name="list" id={`list-${l.db_id}`} value={l.db_id} checked={chosen === l.db_id} onChange={() => dialog.choose(l.db_id)} />
            <label htmlFor={`list-${l.db_id}`}>
              {l.name} <span className="muted">· {t.items(l.productCount)}</span>
            </label>
          </div>
        ))}
      </fieldset>
      <NewListForm t={t} busy={busy} onCreate={(name) => void dialog.createList(name)} />
      <div className="stack">
        <button type="button" className="btn-primary" disabled={busy || chosen === null} onClick={() => void dialog.moveTo(placement)}>
          {busy ? t.saving : t.moveHere}
        </button>
        <button type="button" className="btn-link" onClick={() => dialog.backToSaved(placement)}>
          {t.back}
        </button>
      </div>
    </>
  );
}

/** Loading the lists or saving failed: the alert says why (and may offer a retry). */
export function FailedScreen({ dialog }: Props) {
  return (
    <>
      <Heading dialog={dialog}>{dialog.t.titleSave}</Heading>
      <ProductBox dialog={dialog} />
      <ErrorAlert dialog={dialog} />
      <button type="button" className="btn wide" onClick={dialog.closeDialog}>
        {dialog.t.close}
      </button>
      <AccountFooter dialog={dialog} />
    </>
  );
}

export function RemovedScreen({ dialog, listName }: Props & { listName: string }) {
  const { t } = dialog;
  return (
    <>
      <Heading dialog={dialog}>{t.removedFrom(listName)}</Heading>
      <ProductBox dialog={dialog} />
      <div className="stack">
        <a className="btn" href={dialog.myLists} target="_blank" rel="noopener">
          {t.viewMyLists}
        </a>
        <button type="button" className="btn-primary" onClick={dialog.closeDialog}>
          {t.close}
        </button>
      </div>
    </>
  );
}

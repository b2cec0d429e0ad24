import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';

/** The ten recovery codes, shown once after the authenticator is turned on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const copy = () => {
    navigator.clipboard.writeText(codes.join('\n')).then(
      () => toast({ title: 'Copied', description: 'The recovery codes are on the clipboard.' }),
      () => undefined,
    );
  };
  return (
    <div className="grid gap-4" data-testid="recovery-codes">
      <p className="text-sm text-muted-foreground">
        Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone.
        They are shown only now.
      </p>
      <ul className="grid grid-cols-2 gap-2 rounded-lg border bg-muted/40 p-3 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={copy}>
          Copy Codes
        </Button>
        <Button type="button" onClick={onDone}>
          I Have Saved Them
        </Button>
      </div>
    </div>
  );
}
